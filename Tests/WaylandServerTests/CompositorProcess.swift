// ir-compositor as the compositor tests run it: a child in the tests' runtime directory,
// its standard output and error in one pipe.
import Foundation
import TestSupport

/// The recordings the compositor tests replay (Tests/RecordingTests/Fixtures).
let recordingFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../RecordingTests/Fixtures").standardized.path

final class CompositorProcess {
    let process: ChildProcess

    /// Starts ir-compositor with `arguments`; `environment` is added to the test's own (a
    /// nil value removes the variable).
    init(_ arguments: [String], environment: [String: String?] = [:]) throws {
        var env = environment
        if env["XDG_RUNTIME_DIR"] == nil { env["XDG_RUNTIME_DIR"] = runtimeDirectory }
        process = try ChildProcess(
            productsDirectory + "/ir-compositor", arguments, environment: env, output: .merged,
            nonBlockingOutput: false)
    }

    /// What it printed next (standard error included), waiting for it; empty once it and
    /// whatever it started closed their output.
    func nextOutput() -> Data { Data(process.nextOutput()) }

    /// Everything it prints until it exits; returns once it has.
    func readToExit() -> String {
        let output = process.readToEnd().output
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
