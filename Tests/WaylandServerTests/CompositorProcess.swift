// ir-compositor as the compositor tests run it: a child in the tests' runtime directory,
// its standard output and error in one pipe.
import Foundation

/// The recordings the compositor tests replay (Tests/RecordingTests/Fixtures).
let recordingFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../RecordingTests/Fixtures").standardized.path

struct CompositorProcess {
    let process = Process()
    /// What it prints, standard error included.
    let output: FileHandle

    /// Starts ir-compositor with `arguments`; `environment` is added to the test's own (a
    /// nil value removes the variable).
    init(_ arguments: [String], environment: [String: String?] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: productsDirectory + "/ir-compositor")
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        output = pipe.fileHandleForReading
        try process.run()
    }

    /// Everything it prints until it exits; returns once it has.
    func readToExit() -> String {
        let data = output.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
