// A flight recorder's bundle (docs/bug-reports.md): the scene snapshot when the kept
// stretch began, the input since as a `libinput record` file, the scene's edits since
// (SceneJournalText), and the trace the embedder produced for it. `ir-replay BUNDLE` rebuilds the scene and replays the input to compare.

import Foundation
import InputRouter

extension FlightRecorder {
    /// The comment a bundle's input file starts with: the first device's id, which the
    /// reader's `deviceIDBase` must be so that ids match the snapshot's.
    public static let deviceBaseComment = "# InputRouter device ids from "

    /// The snapshot's text and the input file's text.
    public func bundle() -> (scene: String, input: String) {
        let events = self.events
        var capabilities: [UInt32: DeviceCapabilities] = [:]
        for d in startScene.seats.first?.devices ?? [] {
            capabilities[d.id, default: []].formUnion(DeviceCapabilities(rawValue: d.capabilities))
        }
        for e in events {
            if case .deviceAdded(let caps) = e.kind { capabilities[e.device.index, default: []].formUnion(caps) }
            if capabilities[e.device.index] == nil { capabilities[e.device.index] = [] }
        }
        let base = capabilities.keys.min() ?? 0
        // Devices are numbered by their place in the file: ids far from the first (a
        // server's virtual devices) are left out rather than written as thousands of gaps.
        let last = min(capabilities.keys.max() ?? 0, base &+ 255)
        var writer = RecordWriter(libinputVersion: "InputRouter flight recorder")
        for id in base...last {
            // A size of 1 mm: positions (0...1 of the range) are written and read back exactly.
            _ = writer.addDevice(
                RecordedDevice(
                    id: DeviceID(id), node: "/dev/input/event\(id)", name: "InputRouter device \(id)",
                    libinputCapabilities: capabilities[id] ?? [], libinputSize: [1, 1]))
        }
        for e in events where e.device.index >= base && e.device.index <= last {
            writer.append(device: Int(e.device.index - base), evdev: [], libinput: [e])
        }
        var input = writer.yaml()
        if let end = input.firstIndex(of: "\n") {
            input.insert(contentsOf: "\n" + Self.deviceBaseComment + "\(base)", at: end)
        }
        return (SceneSnapshot.write(startScene), input)
    }

    /// Writes the bundle into `directory` (made if missing): scene.jsonl, input.yml,
    /// journal.jsonl and trace.txt, the trace being what the embedder produced since
    /// `startTraceMark`.
    public func writeBundle(to directory: String, trace: String) throws {
        let (scene, input) = bundle()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(SceneJournalText.write(edits).utf8).write(
            to: URL(fileURLWithPath: directory + "/" + ReportBundle.journalFile))
        try Data(scene.utf8).write(to: URL(fileURLWithPath: directory + "/" + ReportBundle.sceneFile))
        try Data(input.utf8).write(to: URL(fileURLWithPath: directory + "/" + ReportBundle.inputFile))
        try Data(trace.utf8).write(to: URL(fileURLWithPath: directory + "/" + ReportBundle.traceFile))
    }

    /// The device id base a bundle's input file names (0 for any other file).
    public static func deviceBase(ofInput text: String) -> UInt32 {
        for line in text.split(separator: "\n").prefix(4) where line.hasPrefix(deviceBaseComment) {
            return UInt32(line.dropFirst(deviceBaseComment.count)) ?? 0
        }
        return 0
    }
}
