// libFuzzer entry point (no main: libFuzzer supplies it). The decoding and the checks
// live in FuzzSupport, where the regression tests run them without the fuzzer.
import InputRouterFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let problems = RouterFuzz.run(Array(UnsafeBufferPointer(start: data, count: size)), mode: .trap)
    if let first = problems.first { fatalError("RouterFuzzer finding: \(first)") }
    return 0
}
