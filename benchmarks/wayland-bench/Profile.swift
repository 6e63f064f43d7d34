// Instruction counts under callgrind: totals per event, and the per-function breakdown of
// one event kind (inclusive instructions per event, top functions), so the next engineer
// sees where the cost is. Per event = the difference between a short and a long run,
// divided by the difference in events: setup cancels out.
import Foundation

enum Callgrind {
    /// Valgrind 3.19 gives up on the Swift 6 toolchain's DWARF: it runs a copy without it
    /// (the symbol table stays, so functions keep their names).
    static let binary: String = {
        let copy = NSTemporaryDirectory() + "wayland-bench-nodebug-\(getpid())"
        _ = run(
            "/usr/bin/strip", ["--strip-debug", "-o", copy, Bundle.main.executablePath ?? CommandLine.arguments[0]])
        atexit { unlink(NSTemporaryDirectory() + "wayland-bench-nodebug-\(getpid())") }
        return copy
    }()

    /// Runs `path` with `arguments`; its standard error (and standard output if asked).
    @discardableResult
    static func run(_ path: String, _ arguments: [String], input: String? = nil, stdout: Bool = false) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let pipe = Pipe()
        let inPipe = Pipe()
        if stdout {
            p.standardOutput = pipe
            p.standardError = FileHandle.nullDevice
        } else {
            p.standardError = pipe
            p.standardOutput = FileHandle.nullDevice
        }
        if input != nil { p.standardInput = inPipe }
        guard (try? p.run()) != nil else { return nil }
        if let input {
            // Written from another thread: the child's output could fill its pipe first.
            let handle = inPipe.fileHandleForWriting
            Thread.detachNewThread {
                handle.write(Data(input.utf8))
                try? handle.close()
            }
        }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return p.terminationStatus == 0 ? text : nil
    }

    /// Callgrind's options that count only inside the benchmark's loop, on the server's
    /// thread, as the headline does: the profiles then see neither setup nor the `--only`
    /// warm-up (whose cost differs between processes: with it counted, the raw way's column
    /// showed 3 to 57 instructions an event in routed-only functions) nor the reader thread.
    static let loopOnly = ["--collect-atstart=no", "--toggle-collect=\(EndToEnd.loopSymbol)"]

    /// Inclusive instructions per function of one run inside the loop (callgrind_annotate --inclusive=yes).
    static func inclusive(_ arguments: [String]) -> [String: Double] {
        let out = NSTemporaryDirectory() + "wayland-bench-callgrind-\(getpid())"
        defer { unlink(out) }
        guard
            run(
                "/usr/bin/valgrind",
                ["--tool=callgrind", "--callgrind-out-file=\(out)"] + loopOnly + [binary] + arguments) != nil,
            let text = run("/usr/bin/callgrind_annotate", ["--inclusive=yes", "--threshold=100", out], stdout: true)
        else { return [:] }
        var result: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            // "12,345 (97.2%)  ???:symbol [/path/to/object]"
            let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard fields.count == 3, fields[1].hasPrefix("("),
                let count = Double(fields[0].replacingOccurrences(of: ",", with: ""))
            else { continue }
            var name = String(fields[2]).trimmingCharacters(in: .whitespaces)
            if let bracket = name.range(of: " [", options: .backwards) { name = String(name[..<bracket.lowerBound]) }
            if let colon = name.range(of: ":") { name = String(name[colon.upperBound...]) }
            // libc's allocator apart (its count follows the heap's layout, not routing):
            // the binary's PLT entry of the same name includes it, so it is keyed apart.
            if line.contains("/libc.so"), allocator.contains(name) {
                result["libc " + name, default: 0] += count
                continue
            }
            result[name, default: 0] += count
        }
        return result
    }

    /// One run under cachegrind's cache simulation: the level-1 instruction cache it modelled
    /// (its own reading of this CPU, as "32768 B, 64 B, 8-way associative") and the misses
    /// per function, with "PROGRAM TOTALS".
    static func instructionCacheMisses(_ arguments: [String]) -> (cache: String, misses: [String: Double])? {
        let out = NSTemporaryDirectory() + "wayland-bench-cachegrind-\(getpid())"
        defer { unlink(out) }
        guard
            run(
                "/usr/bin/valgrind",
                ["--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file=\(out)", binary] + arguments) != nil,
            let text = run("/usr/bin/cg_annotate", ["--show=I1mr", "--sort=I1mr", "--threshold=0", out], stdout: true)
        else { return nil }
        var cache = ""
        var misses: [String: Double] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("I1 cache:") {
                cache = line.dropFirst(9).trimmingCharacters(in: .whitespaces)
                continue
            }
            // "1,229,273 (100.0%)  PROGRAM TOTALS" or "98,261 ( 7.99%)  ???:symbol"
            guard let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"), open < close,
                let count = Double(
                    line[..<open].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ""))
            else { continue }
            var name = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            if let colon = name.range(of: ":") { name = String(name[colon.upperBound...]) }
            misses[name, default: 0] += count
        }
        return misses.isEmpty ? nil : (cache, misses)
    }

    /// Prints the level-1 instruction-cache misses per event of `kind`, routed and raw, and
    /// the routed way's top functions by misses. The time ratio can exceed the instruction
    /// ratio when the routed loop's code no longer fits the cache while the raw loop's does.
    static func cacheProfile(_ kind: String, short: Int, long: Int, top: Int) {
        func perEvent(_ way: String) -> (cache: String, misses: [String: Double])? {
            guard let a = instructionCacheMisses(["--only", kind, way, "\(short)"]),
                let b = instructionCacheMisses(["--only", kind, way, "\(long)"])
            else { return nil }
            let events = Double(long - short)
            var result: [String: Double] = [:]
            for (name, count) in b.misses { result[name] = (count - (a.misses[name] ?? 0)) / events }
            return (b.cache, result)
        }
        guard let routed = perEvent("routed"), let raw = perEvent("raw") else {
            print("(cachegrind gave no cache profile)")
            return
        }
        print(
            String(
                format: "\nLevel-1 instruction-cache misses per %@ (cachegrind's model: %@): %.1f routed, %.1f raw",
                kind, routed.cache, routed.misses["PROGRAM TOTALS"] ?? 0, raw.misses["PROGRAM TOTALS"] ?? 0))
        let rows = routed.misses.filter { $0.key != "PROGRAM TOTALS" && $0.value >= 1 }.sorted { $0.value > $1.value }
            .prefix(top)
        guard !rows.isEmpty else { return }
        let names = demangle(rows.map(\.key))
        print("\n| misses, routed | function |\n|---:|---|")
        for (i, (_, count)) in rows.enumerated() {
            let name = names[i].count > 150 ? String(names[i].prefix(147)) + "..." : names[i]
            print("| \(String(format: "%.1f", count)) | `\(name.replacingOccurrences(of: "|", with: "\\|"))` |")
        }
    }

    /// libc's allocator entry points, whose inclusive counts `inclusive` keys as "libc NAME".
    static let allocator: Set<String> = ["calloc", "malloc", "free", "realloc"]

    /// Swift names made readable (swift-demangle from the toolchain on PATH, if any).
    static func demangle(_ names: [String]) -> [String] {
        guard
            let text = run(
                "/usr/bin/env", ["swift-demangle", "--simplified", "--compact"],
                input: names.joined(separator: "\n") + "\n",
                stdout: true)
        else { return names }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.count >= names.count ? Array(lines.prefix(names.count)) : names
    }

    /// The process's own frames above the benchmark loop, which every event "includes".
    static func scaffolding(_ name: String) -> Bool {
        name == "PROGRAM TOTALS" || name.hasPrefix("0x") || name.hasPrefix("(below main)")
            || name.hasPrefix("__libc_start")
            || name.hasSuffix("_main") || name == "main" || name.hasPrefix("start_thread") || name.hasPrefix("clone")
    }

    /// Prints the `top` functions by inclusive instructions per event of routed `kind`, with
    /// the same function's count when the events are posted raw: what routing adds is the
    /// difference, and a function only routing calls has no raw count.
    static func profile(_ kind: String, short: Int, long: Int, top: Int) {
        func perEvent(_ way: String) -> (functions: [String: Double], total: Double)? {
            let a = inclusive(["--only", kind, way, "\(short)"])
            let b = inclusive(["--only", kind, way, "\(long)"])
            guard !a.isEmpty, !b.isEmpty else { return nil }
            let events = Double(long - short)
            var result: [String: Double] = [:]
            for (name, count) in b where !scaffolding(name) { result[name] = (count - (a[name] ?? 0)) / events }
            return (result, ((b["PROGRAM TOTALS"] ?? 0) - (a["PROGRAM TOTALS"] ?? 0)) / events)
        }
        guard let routed = perEvent("routed"), let raw = perEvent("raw") else {
            print("(callgrind_annotate gave no profile)")
            return
        }
        // The server's own thread (the benchmark loop, inclusive), libc's allocator left out
        // of both ways: what routing adds, without the reader thread's and the heap's noise.
        func serverWithoutAllocator(_ way: (functions: [String: Double], total: Double), _ loop: String) -> Double? {
            // The loop itself, not a closure or a specialization inside it: the largest.
            guard
                let server = way.functions.filter({ $0.key.contains("EndTo") && $0.key.contains(loop) }).max(by: {
                    $0.value < $1.value
                })
            else { return nil }
            return server.value - allocator.reduce(0) { $0 + (way.functions["libc " + $1] ?? 0) }
        }
        let rows = routed.functions.filter { $0.value > 1 && !$0.key.hasPrefix("libc ") }.sorted { $0.value > $1.value }
            .prefix(top)
        let names = demangle(rows.map(\.key))
        print("\nWhere routed \(kind) spends its instructions: inclusive per event, top \(top) functions, and the same")
        print(
            String(
                format:
                    "function's count posted raw (callgrind, inside the loop as the headline; %.0f routed and %.0f raw",
                routed.total, raw.total))
        print("instructions per event in all, from one run at each length, so the allocator's share moves by hundreds")
        print(
            "between runs: the headline takes each way's median without the allocator over five processes, and the allocator's over all ten)\n"
        )
        if let r = serverWithoutAllocator(routed, "C6routedyy"), let w = serverWithoutAllocator(raw, "C3rawyy") {
            print(
                String(
                    format:
                        "The server's thread alone, libc's calloc, malloc and free left out of both: %.0f routed, %.0f raw = %.2fx\n",
                    r, w, r / w))
        }
        print("| routed | raw | function |\n|---:|---:|---|")
        for (i, (key, count)) in rows.enumerated() {
            let name = names[i].count > 150 ? String(names[i].prefix(147)) + "..." : names[i]
            let rawCount = raw.functions[key].map { $0 >= 1 ? String(format: "%.0f", $0) : "" } ?? ""
            print(
                "| \(String(format: "%.0f", count)) | \(rawCount) | `\(name.replacingOccurrences(of: "|", with: "\\|"))` |"
            )
        }
    }
}
