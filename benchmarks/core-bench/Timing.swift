// Clocks, a seeded generator and the statistics every part of the benchmark shares.
import Foundation

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median nanoseconds per operation over 7 runs, each of enough passes over `count`
/// operations to last 50 ms (the C harness does the same, so the two compare).
func measure(count: Int, _ body: (Int) -> Void) -> Double {
    var passes = 0
    let start = now()
    repeat {
        for i in 0..<count { body(i) }
        passes += 1
    } while now() - start < 50_000_000
    var samples: [Double] = []
    for _ in 0..<7 {
        let t0 = now()
        for _ in 0..<passes { for i in 0..<count { body(i) } }
        samples.append(Double(now() - t0) / Double(passes * count))
    }
    return samples.sorted()[3]
}

struct Lcg {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() * Double(range.count)) }
}

/// The `q` quantile (0...1) of sorted samples.
func quantile(_ sorted: [UInt64], _ q: Double) -> UInt64 {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
}

/// Resident memory of this process in kB (VmRSS), or 0 where /proc is missing.
func residentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

func ns(_ v: Double) -> String {
    v >= 10_000
        ? String(format: "%.1f µs", v / 1000) : v >= 100 ? String(format: "%.0f ns", v) : String(format: "%.1f ns", v)
}
