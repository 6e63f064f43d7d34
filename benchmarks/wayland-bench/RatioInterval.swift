// A ratio measured in several independent runs, summarised with its spread: the median of
// the per-run ratios, and a 95% confidence interval for their typical value. Ratios
// multiply, so the interval is Student's t on their logarithms (a geometric mean and its
// interval, back on the ratio scale). One busy run then widens the interval instead of
// moving a single number past the goal: it can neither pass nor fail the goal alone.

import Foundation

struct RatioInterval {
    let ratios: [Double]
    let median: Double
    let geometricMean: Double
    let low: Double
    let high: Double

    /// Two-sided 95% quantiles of Student's t, for 1 to 20 degrees of freedom.
    static let t975: [Double] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    ]

    /// nil with fewer than two finite, positive ratios (no spread to speak of).
    init?(_ values: [Double]) {
        let r = values.filter { $0.isFinite && $0 > 0 }
        guard r.count >= 2 else { return nil }
        ratios = r
        let sorted = r.sorted()
        let n = sorted.count
        median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
        let logs = r.map { log($0) }
        let mean = logs.reduce(0, +) / Double(n)
        let variance = logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n - 1)
        let t = n - 1 <= Self.t975.count ? Self.t975[n - 2] : 1.96
        let half = t * (variance / Double(n)).squareRoot()
        geometricMean = exp(mean)
        low = exp(mean - half)
        high = exp(mean + half)
    }

    enum Verdict: String {
        case pass = "PASS"
        case fail = "FAIL"
        case undecided = "UNDECIDED"
    }

    /// Against a goal of at most `goal`: PASS when the whole interval is at or under it,
    /// FAIL when the whole interval is over it, UNDECIDED when the interval holds it (the
    /// runs disagree too much to say: rerun on a quieter host).
    func verdict(goal: Double) -> Verdict {
        if high <= goal { return .pass }
        if low > goal { return .fail }
        return .undecided
    }

    var summary: String {
        let each = ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ")
        return String(
            format: "median %.2fx, geometric mean %.2fx, 95%% CI %.2fx to %.2fx (%d runs: %@)", median,
            geometricMean, low, high, ratios.count, each)
    }
}
