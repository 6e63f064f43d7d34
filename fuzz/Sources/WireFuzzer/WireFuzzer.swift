// libFuzzer entry point (no main: libFuzzer supplies it). The decoding and the checks
// live in FuzzSupport (WireFuzz), where the regression tests run them without the fuzzer.
import InputRouterFuzzing

nonisolated(unsafe) var silenced = false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if !silenced {
        WireFuzz.silenceLibwaylandLog()
        silenced = true
    }
    let problems = WireFuzz.run(
        Array(UnsafeBufferPointer(start: data, count: size)), freshServer: false, checksFileDescriptors: true)
    if let first = problems.first { fatalError("WireFuzzer finding: \(first)") }
    return 0
}
