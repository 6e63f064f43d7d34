// The routed way's own instructions by the function they were written in. The inclusive
// table (Profile.swift) names only the functions left as calls; a release build inlines
// most of the router into a few of them, so a table of calls shows where the cost sits, not
// what it is. Here callgrind counts every instruction (--dump-instr=yes) of the copy without
// DWARF, and addr2line on the program itself, which keeps its DWARF, names the innermost
// function each instruction's code was inlined from. Per event, as for the other tables:
// the long run minus the short one, divided by the difference in events.
import Foundation

enum InlinedProfile {
    /// Self instructions per object file and per address in it, of one callgrind run.
    struct Counts {
        var byObject: [String: Double] = [:]
        var byAddress: [String: [UInt64: Double]] = [:]
    }

    /// Reads a callgrind output file written with `--dump-instr=yes` (positions `instr
    /// line`): each cost line is an address (absolute `0x…`, or `+n`/`-n`/`*` relative to
    /// the last), a line number and the instruction count; the cost line after a `calls=`
    /// line is the call's inclusive cost, not the caller's own, and is skipped. Names are
    /// compressed: `ob=(3) /path` defines id 3, a later `ob=(3)` or `cob=(3)` refers to it.
    static func parse(_ text: String) -> Counts {
        var counts = Counts()
        var objects: [Substring: String] = [:]
        var object = ""
        var address: UInt64 = 0
        var callCost = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if line.hasPrefix("ob=") || line.hasPrefix("cob=") {
                let rest = line.drop(while: { $0 != "(" })
                guard let close = rest.firstIndex(of: ")") else { continue }
                let id = rest[rest.index(after: rest.startIndex)..<close]
                let name = rest[rest.index(after: close)...].trimmingCharacters(in: .whitespaces)
                if !name.isEmpty { objects[id] = name }
                if first == "o" { object = objects[id] ?? "" }
                continue
            }
            if line.hasPrefix("calls=") {
                callCost = true
                continue
            }
            guard first == "0" || first == "+" || first == "-" || first == "*" else { continue }
            let fields = line.split(separator: " ")
            let position = fields[0]
            if position.hasPrefix("0x") {
                address = UInt64(position.dropFirst(2), radix: 16) ?? address
            } else if first == "+" {
                address &+= UInt64(position.dropFirst()) ?? 0
            } else if first == "-" {
                address &-= UInt64(position.dropFirst()) ?? 0
            }
            if callCost {
                callCost = false
                continue
            }
            guard fields.count >= 3, let cost = Double(fields[2]) else { continue }
            counts.byObject[object, default: 0] += cost
            counts.byAddress[object, default: [:]][address, default: 0] += cost
        }
        return counts
    }

    /// One run of this program under callgrind with each instruction's count (`--dump-instr`).
    /// `options` go to callgrind (a `--toggle-collect`, for one function's own share).
    static func run(_ arguments: [String], options: [String] = []) -> Counts? {
        let out = NSTemporaryDirectory() + "wayland-bench-instr-\(getpid())"
        defer { unlink(out) }
        guard
            Callgrind.run(
                "/usr/bin/valgrind",
                ["--tool=callgrind", "--dump-instr=yes", "--callgrind-out-file=\(out)"] + options
                    + [Callgrind.binary] + arguments) != nil,
            let text = try? String(contentsOfFile: out, encoding: .utf8)
        else { return nil }
        return parse(text)
    }

    /// The innermost function each address's code comes from (addr2line reads the
    /// addresses on its standard input).
    static func functions(of addresses: [UInt64], in program: String) -> [UInt64: String] {
        let input = addresses.map { "0x" + String($0, radix: 16) }.joined(separator: "\n") + "\n"
        guard let text = Callgrind.run("/usr/bin/addr2line", ["-a", "-f", "-e", program], input: input, stdout: true)
        else { return [:] }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var result: [UInt64: String] = [:]
        // Three lines an address (address, function, file:line); neither of the others
        // starts with "0x".
        for i in lines.indices.dropLast() where lines[i].hasPrefix("0x") {
            if let a = UInt64(lines[i].dropFirst(2), radix: 16) { result[a] = String(lines[i + 1]) }
        }
        // Code the compiler made with no DWARF of its own (outlined copies and destroys of
        // enum payloads, thunks, merged functions) answers "??": named by the symbol it lies
        // in, from the symbol table.
        let symbols = symbolTable(of: program)
        for (a, name) in result where name == "??" {
            if let s = symbol(containing: a, in: symbols) { result[a] = s + " (no DWARF)" }
        }
        return result
    }

    /// The program's code symbols by start address (`nm -n`: sorted).
    static func symbolTable(of program: String) -> [(start: UInt64, name: String)] {
        guard let text = Callgrind.run("/usr/bin/nm", ["-n", "--defined-only", program], stdout: true) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ", maxSplits: 2)
            guard f.count == 3, f[1] == "t" || f[1] == "T", let a = UInt64(f[0], radix: 16) else { return nil }
            return (a, String(f[2]))
        }
    }

    /// The last symbol that starts at or before `address`.
    static func symbol(containing address: UInt64, in symbols: [(start: UInt64, name: String)]) -> String? {
        var low = 0
        var high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? symbols[low - 1].name : nil
    }

    /// Prints the routed way's own instructions per event by object file, beside the raw
    /// way's, and the `top` functions of the program by the instructions inlined from them.
    static func print(_ kind: String, short: Int, long: Int, top: Int) {
        guard let program = Bundle.main.executablePath,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/addr2line")
        else { return }
        func perEvent(_ way: String) -> Counts? {
            guard let a = run(["--only", kind, way, "\(short)"], options: Callgrind.loopOnly),
                let b = run(["--only", kind, way, "\(long)"], options: Callgrind.loopOnly)
            else { return nil }
            let events = Double(long - short)
            var result = Counts()
            for (object, count) in b.byObject { result.byObject[object] = (count - (a.byObject[object] ?? 0)) / events }
            for (object, costs) in b.byAddress {
                let before = a.byAddress[object] ?? [:]
                result.byAddress[object] = costs.mapValues { $0 / events }.merging(before.mapValues { -$0 / events }) {
                    $0 + $1
                }
            }
            return result
        }
        guard let routed = perEvent("routed"), let raw = perEvent("raw") else {
            Swift.print("(callgrind gave no per-instruction counts)")
            return
        }
        let own = Callgrind.binary
        func label(_ object: String) -> String {
            object == own ? "this program" : (object.split(separator: "/").last.map(String.init) ?? object)
        }
        Swift.print(
            "\nRouted \(kind)'s instructions per event by where they run (callgrind, inside the loop, each instruction's count; this program's"
        )
        Swift.print("own code then by the function the compiler inlined it from, addr2line on its DWARF):\n")
        Swift.print("| routed | raw | object |\n|---:|---:|---|")
        let objects = Set(routed.byObject.keys).union(raw.byObject.keys)
            .filter { abs(routed.byObject[$0] ?? 0) >= 1 || abs(raw.byObject[$0] ?? 0) >= 1 }
            .sorted { (routed.byObject[$0] ?? 0) > (routed.byObject[$1] ?? 0) }
        for o in objects {
            Swift.print(String(format: "| %.0f | %.0f | %@ |", routed.byObject[o] ?? 0, raw.byObject[o] ?? 0, label(o)))
        }
        let costs = routed.byAddress[own] ?? [:]
        let rawCosts = raw.byAddress[own] ?? [:]
        let addresses = Array(Set(costs.keys).union(rawCosts.keys))
        let names = functions(of: addresses, in: program)
        var byFunction: [String: (routed: Double, raw: Double)] = [:]
        for a in addresses {
            let name = names[a] ?? "??"
            byFunction[name, default: (0, 0)].routed += costs[a] ?? 0
            byFunction[name, default: (0, 0)].raw += rawCosts[a] ?? 0
        }
        let rows = byFunction.filter { $0.value.routed >= 1 }.sorted { $0.value.routed > $1.value.routed }
        let shown = rows.prefix(top)
        let readable = Callgrind.demangle(shown.map(\.key))
        Swift.print("\n| routed | raw | inlined from |\n|---:|---:|---|")
        for (i, (_, c)) in shown.enumerated() {
            let name = readable[i].count > 120 ? String(readable[i].prefix(117)) + "..." : readable[i]
            Swift.print(
                String(
                    format: "| %.0f | %@ | `%@` |", c.routed, c.raw >= 1 ? String(format: "%.0f", c.raw) : "",
                    name.replacingOccurrences(of: "|", with: "\\|")))
        }
        let rest = rows.dropFirst(top)
        if !rest.isEmpty {
            Swift.print(
                String(
                    format: "| %.0f | | the other %d functions, none over %.0f |",
                    rest.reduce(0) { $0 + $1.value.routed }, rest.count,
                    rest.first?.value.routed ?? 0))
        }
    }
}
