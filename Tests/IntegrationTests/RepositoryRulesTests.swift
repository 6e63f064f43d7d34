// Rules about the repository itself that a reviewer would otherwise check by eye:
// unsafe idioms stay in the few files that say why they need them, and docs/design.md's
// map names every source folder there is (and only those).

import Foundation
import Testing

@Suite struct RepositoryRulesTests {
    /// The files allowed to use unchecked exclusivity, unsafe unowned references, borrowed
    /// references or unmanaged references. Each says at its top, under "Unsafe idioms, and
    /// why:", what it measured. Adding a file here is a design decision: say it in review.
    static let filesAllowedUnsafeIdioms: Set<String> = [
        "Sources/InputRouter/Routing/Delivery.swift",
        "Sources/InputRouter/Routing/Router.swift",
        "Sources/InputRouter/Seat/Seat.swift",
        "Sources/InputRouter/Tree/SurfaceTree.swift",
        "Sources/InputRouterC/Handles.swift",
        "Sources/InputRouterKeyboard/CallbackContext.swift",
        "Sources/InputRouterLibinput/CallbackContext.swift",
        "Sources/InputRouterNested/CallbackContext.swift",
        "Sources/InputRouterWLCS/CallbackContext.swift",
        "Sources/InputRouterWayland/Display/CallbackContext.swift",
        "Sources/InputRouterWayland/Display/Object.swift",
        "Sources/InputRouterWayland/Display/Server.swift",
        "Sources/InputRouterWayland/InputProtocols/Idle.swift",
        "Sources/InputRouterWayland/InputProtocols/TextInputMethod.swift",
        "Sources/InputRouterWayland/Seat/Sender.swift",
        "Sources/InputRouterWayland/Shell/Server+Activation.swift",
        "Sources/InputRouterWayland/Shell/Surface.swift",
        "Sources/InputRouterWayland/Shell/XdgShell.swift",
    ]

    static let unsafeIdioms = [
        "@exclusivity(unchecked)", "unowned(unsafe)", "_withUnsafeGuaranteedRef", "Unmanaged<", "Unmanaged.",
        "unsafeBitCast",
    ]

    @Test func unsafeIdiomsOnlyInTheFilesThatSayWhy() throws {
        var offenders: [String] = []
        var unjustified: [String] = []
        var used: Set<String> = []
        for path in try Repository.files(under: "Sources", extension: "swift") {
            let text = try Repository.read(path)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let trimmed = line.drop { $0 == " " }
                let code = trimmed.hasPrefix("//") ? "" : trimmed.split(separator: "//", maxSplits: 1).first ?? ""
                guard let idiom = Self.unsafeIdioms.first(where: { code.contains($0) }) else { continue }
                used.insert(path)
                if !Self.filesAllowedUnsafeIdioms.contains(path) {
                    offenders.append("\(path):\(number + 1): \(idiom) outside the allowed files")
                }
            }
            if used.contains(path), Self.filesAllowedUnsafeIdioms.contains(path) {
                // The file's opening comment: what a reader sees before any code.
                let header = lines.prefix { $0.hasPrefix("//") || $0.isEmpty }.joined(separator: "\n")
                if !header.contains("Unsafe idiom") {
                    unjustified.append("\(path): uses unsafe idioms but its header does not say why")
                }
            }
        }
        let unused = Self.filesAllowedUnsafeIdioms.subtracting(used).sorted().map {
            "\($0): allowed unsafe idioms but uses none; take it off the list"
        }
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
        #expect(unjustified.isEmpty, "\(unjustified.joined(separator: "\n"))")
        #expect(unused.isEmpty, "\(unused.joined(separator: "\n"))")
    }

    /// docs/design.md's map: a table whose first column is a folder in backticks and whose
    /// last column names files in backticks ("to change X, open `Y`").
    @Test func theDesignMapNamesEveryFolderAndEveryFileItNamesExists() throws {
        let design = try Repository.read("docs/design.md")
        guard let mapStart = design.range(of: "\n## Map") else {
            Issue.record("docs/design.md has no \"## Map\" section")
            return
        }
        let rows = design[mapStart.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
        var mapped: Set<String> = []
        var problems: [String] = []
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let folder = Repository.backticked(cells[0]).first ?? ""
            mapped.insert(folder)
            if !Repository.isDirectory(folder) { problems.append("map names \(folder), which is not a folder") }
            for named in Repository.backticked(cells.last ?? "") where !Repository.exists(named) {
                problems.append("map row \(folder) names \(named), which does not exist")
            }
        }
        var foldersWithCode: Set<String> = []
        for ext in ["swift", "c"] {
            for path in try Repository.files(under: "Sources", extension: ext) {
                foldersWithCode.insert((path as NSString).deletingLastPathComponent)
            }
        }
        for folder in foldersWithCode.sorted() where !mapped.contains(folder) {
            // A DocC catalogue's tutorial code is documentation, compiled so it stays true.
            if folder.contains(".docc/") { continue }
            // A C target's include/ folder goes with the target's row.
            if folder.hasSuffix("/include"), mapped.contains((folder as NSString).deletingLastPathComponent) {
                continue
            }
            problems.append("\(folder) holds code but docs/design.md's map does not name it")
        }
        #expect(!rows.isEmpty, "the map has no rows")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}

/// The checked-out repository, found from this file's path.
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.path
            }
        }
        return FileManager.default.currentDirectoryPath
    }()

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root + "/" + path) }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Paths relative to the root, sorted, of the files under `folder` ending in `.ext`.
    static func files(under folder: String, extension ext: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix("." + ext) }.map { folder + "/" + $0 }
            .sorted()
    }

    /// The `backticked` words of a table cell.
    static func backticked(_ cell: some StringProtocol) -> [String] {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }
}
