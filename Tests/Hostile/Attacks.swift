// The seeded generator: valid-looking noise, then one attack per session. Each attack says
// which rule it breaks and the error the protocol names for it (interface:code), where
// the protocol names one.
import Foundation
import InputRouterWireClient

enum Mode: String, CaseIterable {
    case unknownID = "unknown-id"
    case destroyedID = "destroyed-id"
    case newIDCollision = "new-id-collision"
    case wrongType = "wrong-type"
    case badSize = "bad-size"
    case unknownOpcode = "unknown-opcode"
    case badEnum = "bad-enum"
    case subsurfaceCycle = "subsurface-cycle"
    case region = "region"
    case badShm = "bad-shm"
    case grab = "grab"
    case flood = "flood"
    case neverRead = "never-read"
    case garbage = "garbage"
    case newGlobals = "new-globals"
}

struct Plan {
    var variant: String
    var expect: String
    /// How long to wait for the server's verdict, in ms.
    var patienceMS = 3000
    var neverRead = false
}

/// SplitMix64: small, seeded, the same sequence everywhere.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    mutating func int32(_ range: ClosedRange<Int32>) -> Int32 {
        Int32(Int64(range.lowerBound) + Int64(next() % UInt64(Int64(range.upperBound) - Int64(range.lowerBound) + 1)))
    }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
}

struct Attacker {
    let session: WireSession
    var rng: SplitMix64
    var wire: WireConnection { session.wire }
    var surfaces: [UInt32] = []
    var regions: [UInt32] = []
    /// `--variant N`: the attack's N-th variant instead of a random one.
    var forcedVariant: Int?

    /// Which of `count` variants of the attack to run.
    mutating func variant(_ count: Int) -> Int {
        if let v = forcedVariant { return v % count }
        return rng.int(count)
    }

    init(session: WireSession, rng: SplitMix64) {
        self.session = session
        self.rng = rng
    }

    var compositor: UInt32 { session.bound["wl_compositor"] ?? 0 }
    var subcompositor: UInt32 { session.bound["wl_subcompositor"] ?? 0 }
    var shm: UInt32 { session.bound["wl_shm"] ?? 0 }
    var seat: UInt32 { session.bound["wl_seat"] ?? 0 }
    var wm: UInt32 { session.bound["xdg_wm_base"] ?? 0 }

    mutating func newSurface() -> UInt32 {
        let s = wire.newID("wl_surface")
        wire.send(compositor, Op.compositorCreateSurface, [.uint(s)])
        surfaces.append(s)
        return s
    }

    mutating func newRegion() -> UInt32 {
        let r = wire.newID("wl_region")
        wire.send(compositor, Op.compositorCreateRegion, [.uint(r)])
        regions.append(r)
        return r
    }

    mutating func subsurface(_ child: UInt32, of parent: UInt32) -> UInt32 {
        let sub = wire.newID("wl_subsurface")
        wire.send(subcompositor, Op.subcompositorGetSubsurface, [.uint(sub), .uint(child), .uint(parent)])
        return sub
    }

    /// Valid requests a real client might send: surfaces, regions, subsurface trees, commits.
    mutating func noise(count: Int) {
        for _ in 0..<count {
            switch rng.int(6) {
            case 0: _ = newSurface()
            case 1:
                let r = newRegion()
                for _ in 0..<rng.int(4) {
                    wire.send(
                        r, rng.int(2) == 0 ? Op.regionAdd : Op.regionSubtract,
                        [
                            .int(rng.int32(-100...1000)), .int(rng.int32(-100...1000)), .int(rng.int32(0...500)),
                            .int(rng.int32(0...500)),
                        ])
                }
            case 2:
                if let s = surfaces.randomElement(using: &rng), let r = regions.randomElement(using: &rng) {
                    wire.send(s, Op.surfaceSetInputRegion, [.uint(r)])
                    wire.send(s, Op.surfaceCommit)
                }
            case 3:
                // A fresh child under an existing surface: never a cycle.
                if let parent = surfaces.randomElement(using: &rng) {
                    let child = newSurface()
                    let sub = subsurface(child, of: parent)
                    wire.send(sub, Op.subsurfaceSetPosition, [.int(rng.int32(-50...300)), .int(rng.int32(-50...300))])
                    if rng.int(2) == 0 { wire.send(sub, Op.subsurfacePlaceBelow, [.uint(parent)]) }
                    wire.send(child, Op.surfaceCommit)
                    wire.send(parent, Op.surfaceCommit)
                }
            case 4: session.roundtrip(timeoutMS: 2000)
            default:
                if let s = surfaces.randomElement(using: &rng) { wire.send(s, Op.surfaceCommit) }
            }
        }
        session.roundtrip(timeoutMS: 2000)
    }

    mutating func attack(_ mode: Mode) -> Plan {
        switch mode {
        case .unknownID: return unknownID()
        case .destroyedID: return destroyedID()
        case .newIDCollision: return newIDCollision()
        case .wrongType: return wrongType()
        case .badSize: return badSize()
        case .unknownOpcode: return unknownOpcode()
        case .badEnum: return badEnum()
        case .subsurfaceCycle: return subsurfaceCycle()
        case .region: return region()
        case .badShm: return badShm()
        case .grab: return grab()
        case .flood: return flood()
        case .neverRead: return neverRead()
        case .garbage: return garbage()
        case .newGlobals: return newGlobals()
        }
    }

    // MARK: Object ids

    mutating func unknownID() -> Plan {
        // A client-range id never created, or a server-range one (≥ 0xff000000) never sent.
        let id = variant(2) == 0 ? wire.nextID + UInt32(100 + rng.int(100_000)) : 0xff00_0000 + UInt32(rng.int(1000))
        wire.send(id, UInt16(rng.int(4)), [.uint(UInt32(rng.int(1000))), .int(1), .int(1), .int(1)])
        return Plan(variant: id >= 0xff00_0000 ? "server-range" : "client-range", expect: "wl_display:0")
    }

    mutating func destroyedID() -> Plan {
        if variant(2) == 0 {
            let r = newRegion()
            wire.send(r, Op.regionDestroy)
            session.roundtrip()
            wire.send(r, Op.regionAdd, [.int(0), .int(0), .int(10), .int(10)])
            return Plan(variant: "region", expect: "wl_display:0")
        }
        let s = newSurface()
        wire.send(s, Op.surfaceDestroy)
        wire.send(s, Op.surfaceCommit) // no round trip: the destroy was not even acknowledged
        return Plan(variant: "surface-no-roundtrip", expect: "wl_display:0")
    }

    mutating func newIDCollision() -> Plan {
        switch variant(3) {
        case 0:
            let existing = surfaces.last ?? newSurface()
            wire.send(compositor, Op.compositorCreateSurface, [.uint(existing)])
            return Plan(variant: "existing-id", expect: "wl_display:1")
        case 1:
            wire.send(compositor, Op.compositorCreateRegion, [.uint(0)])
            return Plan(variant: "zero-id", expect: "wl_display:1")
        default:
            // Ids must be allocated in order; a jump ahead is refused.
            wire.send(compositor, Op.compositorCreateRegion, [.uint(wire.nextID + 50)])
            return Plan(variant: "id-gap", expect: "wl_display:1")
        }
    }

    mutating func wrongType() -> Plan {
        let s = newSurface()
        let r = newRegion()
        switch variant(4) {
        case 0:
            _ = subsurface(s, of: r) // a region as the parent surface
            return Plan(variant: "region-as-surface", expect: "wl_display:1")
        case 1:
            wire.send(s, Op.surfaceAttach, [.uint(r), .int(0), .int(0)]) // a region as the buffer
            return Plan(variant: "region-as-buffer", expect: "wl_display:1")
        case 2:
            wire.send(s, Op.surfaceSetInputRegion, [.uint(s)]) // a surface as the region
            return Plan(variant: "surface-as-region", expect: "wl_display:1")
        default:
            _ = subsurface(s, of: 0) // null where the protocol allows none
            return Plan(variant: "null-parent", expect: "wl_display:1")
        }
    }

    // MARK: Message framing

    mutating func badSize() -> Plan {
        let r = newRegion()
        session.roundtrip()
        switch variant(4) {
        case 0:
            // Says 8 bytes (no arguments) where add needs four.
            wire.write(WireConnection.encode(r, Op.regionAdd, [], size: 8))
            return Plan(variant: "short", expect: "wl_display:1")
        case 1:
            // Longer than anything the server buffers (4 KiB), then the bytes to back it.
            wire.write(WireConnection.encode(r, Op.regionAdd, [.int(0), .int(0), .int(1), .int(1)], size: 0xfff0))
            wire.write([UInt8](repeating: 0, count: 8192))
            return Plan(variant: "oversized", expect: "disconnect")
        case 2:
            // A header promising more than is ever sent: the server waits, nothing breaks.
            wire.write(Array(WireConnection.encode(r, Op.regionAdd, [.int(0), .int(0), .int(1), .int(1)]).prefix(12)))
            return Plan(variant: "truncated", expect: "none", patienceMS: 1000)
        default:
            // Not a multiple of 4: the stream is out of step from here on.
            wire.write(
                WireConnection.encode(r, Op.regionAdd, [.int(0), .int(0), .int(1), .int(1)], size: 26) + [0, 0])
            session.roundtrip(timeoutMS: 1000)
            return Plan(variant: "unaligned", expect: "any", patienceMS: 1000)
        }
    }

    mutating func unknownOpcode() -> Plan {
        let r = newRegion()
        let (target, opcode): (UInt32, UInt16) =
            switch variant(3) {
            case 0: (r, UInt16(3 + rng.int(100))) // wl_region has 3 requests
            case 1: (1, UInt16(2 + rng.int(0xfffd))) // wl_display has 2
            default: (compositor, UInt16(2 + rng.int(1000)))
            }
        wire.send(target, opcode, [.uint(1), .uint(2)])
        return Plan(variant: "\(wire.interfaces[target] ?? "?").\(opcode)", expect: "wl_display:1")
    }

    mutating func badEnum() -> Plan {
        let s = newSurface()
        switch variant(6) {
        case 0:
            wire.send(s, Op.surfaceSetBufferTransform, [.int(8 + rng.int32(0...1000))])
            return Plan(variant: "buffer-transform", expect: "wl_surface:1")
        case 1:
            wire.send(s, Op.surfaceSetBufferScale, [.int(rng.int32(-5...0))])
            return Plan(variant: "buffer-scale", expect: "wl_surface:0")
        case 2:
            let p = wire.newID("xdg_positioner")
            wire.send(wm, Op.wmCreatePositioner, [.uint(p)])
            wire.send(p, Op.positionerSetAnchor, [.uint(9 + UInt32(rng.int(1000)))])
            return Plan(variant: "positioner-anchor", expect: "xdg_positioner:0")
        case 3:
            _ = session.buffer(width: 4, height: 4, format: 0x1234_5678)
            return Plan(variant: "shm-format", expect: "wl_shm_pool:0") // wl_shm's code, on the pool
        case 4:
            let x = wire.newID("xdg_surface")
            wire.send(wm, Op.wmGetXdgSurface, [.uint(x), .uint(s)])
            let t = wire.newID("xdg_toplevel")
            wire.send(x, Op.xdgSurfaceGetToplevel, [.uint(t)])
            wire.send(t, Op.toplevelResize, [.uint(seat), .uint(1), .uint(11 + UInt32(rng.int(100)))])
            return Plan(variant: "resize-edge", expect: "xdg_toplevel:0")
        default:
            let p = wire.newID("xdg_positioner")
            wire.send(wm, Op.wmCreatePositioner, [.uint(p)])
            wire.send(p, Op.positionerSetSize, [.int(rng.int32(-100...0)), .int(10)])
            return Plan(variant: "positioner-size", expect: "xdg_positioner:0")
        }
    }

    // MARK: Scene

    mutating func subsurfaceCycle() -> Plan {
        let root = newSurface()
        var chain = [root]
        for _ in 0..<(1 + rng.int(8)) {
            let c = newSurface()
            _ = subsurface(c, of: chain.last!)
            chain.append(c)
        }
        session.roundtrip()
        switch variant(4) {
        case 0:
            _ = subsurface(root, of: chain.last!) // the root under its own descendant
            return Plan(variant: "cycle-\(chain.count)", expect: "wl_subcompositor:0")
        case 1:
            let s = newSurface()
            _ = subsurface(s, of: s)
            return Plan(variant: "self-parent", expect: "wl_subcompositor:0")
        case 2:
            _ = subsurface(chain[1], of: root) // already a subsurface
            return Plan(variant: "two-roles", expect: "wl_subcompositor:0")
        default:
            // place_above a surface that is neither parent nor sibling.
            let stranger = newSurface()
            let c = newSurface()
            let sub = subsurface(c, of: root)
            wire.send(sub, Op.subsurfacePlaceAbove, [.uint(stranger)])
            return Plan(variant: "restack-stranger", expect: "wl_subsurface:0")
        }
    }

    mutating func region() -> Plan {
        // Huge but valid rectangles on a mapped surface's input region, then a bad one.
        let r = newRegion()
        // First two that together span more than 2³¹ pixels each way (a crash once: the
        // core could not hold the union's extents), then random ones.
        wire.send(r, Op.regionAdd, [.int(Int32.min), .int(Int32.min), .int(Int32.max), .int(Int32.max)])
        wire.send(r, Op.regionAdd, [.int(0), .int(0), .int(Int32.max), .int(Int32.max)])
        let huge: [(Int32, Int32, Int32, Int32)] = [
            (Int32.min, Int32.min, Int32.max, Int32.max), (0, 0, Int32.max, Int32.max), (-1, -1, 1, 1),
            (Int32.max - 1, Int32.max - 1, 1, 1), (Int32.min, 0, Int32.max, 10), (0, 0, 0, 0),
        ]
        for _ in 0..<(1 + rng.int(20)) {
            let h = rng.pick(huge)
            wire.send(
                r, rng.int(3) == 0 ? Op.regionSubtract : Op.regionAdd, [.int(h.0), .int(h.1), .int(h.2), .int(h.3)])
        }
        if let top = session.mapToplevel(width: 64, height: 64) {
            wire.send(top.surface, Op.surfaceSetInputRegion, [.uint(r)])
            wire.send(top.surface, Op.surfaceCommit)
            session.roundtrip()
        }
        let bad: [(String, (Int32, Int32, Int32, Int32))] = [
            ("negative-width", (0, 0, -rng.int32(1...Int32.max), 10)), ("negative-height", (0, 0, 10, Int32.min)),
            ("x-overflow", (Int32.max - rng.int32(0...100), 0, 200, 1)), ("y-overflow", (0, Int32.max, 1, 1)),
        ]
        let (name, b) = bad[variant(bad.count)]
        wire.send(r, rng.int(2) == 0 ? Op.regionAdd : Op.regionSubtract, [.int(b.0), .int(b.1), .int(b.2), .int(b.3)])
        return Plan(variant: name, expect: "wl_display:1")
    }

    // MARK: Shared memory

    mutating func badShm() -> Plan {
        switch variant(6) {
        case 0:
            let pool = wire.newID("wl_shm_pool")
            let fd = WireSession.memfd(size: 4096)
            let size = rng.int32(-100...0)
            wire.send(shm, Op.shmCreatePool, [.uint(pool), .fd(fd), .int(size)])
            close(fd)
            return Plan(variant: "pool-size-\(size)", expect: "wl_shm:1")
        case 1:
            // A pipe cannot be mapped.
            var p: [Int32] = [0, 0]
            pipe(&p)
            let pool = wire.newID("wl_shm_pool")
            wire.send(shm, Op.shmCreatePool, [.uint(pool), .fd(p[0]), .int(4096)])
            close(p[0])
            close(p[1])
            return Plan(variant: "pipe-fd", expect: "wl_shm:2")
        case 2:
            _ = session.buffer(width: 16, height: 16, poolSize: 1024, offset: rng.int32(1...100_000))
            return Plan(variant: "offset-past-end", expect: "wl_shm_pool:1")
        case 3:
            let pool = wire.newID("wl_shm_pool")
            let fd = WireSession.memfd(size: 8192)
            wire.send(shm, Op.shmCreatePool, [.uint(pool), .fd(fd), .int(8192)])
            close(fd)
            wire.send(pool, Op.poolResize, [.int(4096)])
            return Plan(variant: "pool-shrink", expect: "wl_shm_pool:2")
        case 4:
            // No fd at all where create_pool needs one.
            let pool = wire.newID("wl_shm_pool")
            wire.write(WireConnection.encode(shm, Op.shmCreatePool, [.uint(pool), .int(4096)]))
            return Plan(variant: "missing-fd", expect: "wl_display:1")
        default:
            // The pool claims 1 MiB over a 4 KiB file: reading the pixels faults (SIGBUS),
            // which libwayland turns into an error on the buffer.
            let fd = WireSession.memfd(size: 4096)
            guard let buffer = session.buffer(width: 256, height: 256, poolSize: 256 * 256 * 4, fd: fd) else {
                return Plan(variant: "sigbus", expect: "any")
            }
            close(fd)
            let s = newSurface()
            wire.send(s, Op.surfaceAttach, [.uint(buffer), .int(0), .int(0)])
            wire.send(s, Op.surfaceCommit)
            return Plan(variant: "file-smaller-than-pool", expect: "wl_buffer:2")
        }
    }

    // MARK: Grabs

    /// Maps a window, asks to be clicked (the test presses a button on it), then takes a
    /// grab with that press's serial and destroys things under it.
    mutating func grab() -> Plan {
        let pointer = wire.newID("wl_pointer")
        wire.send(seat, Op.seatGetPointer, [.uint(pointer)])
        guard let top = session.mapToplevel(width: 120, height: 90) else {
            return Plan(variant: "unmapped", expect: "any")
        }
        print("waiting-for-press")
        guard session.waitFor(timeoutMS: 5000, { _ in session.lastPressSerial != nil }) != nil,
            let serial = session.lastPressSerial
        else {
            return Plan(variant: "no-press", expect: "none", patienceMS: 200)
        }
        switch variant(4) {
        case 0:
            let popup = grabbingPopup(parent: top.xdgSurface, serial: serial)
            // The parent goes first, with its popup still grabbing; then the popup is used.
            wire.send(top.toplevel, Op.toplevelDestroy)
            wire.send(top.xdgSurface, Op.xdgSurfaceDestroy)
            wire.send(top.surface, Op.surfaceDestroy)
            session.roundtrip()
            if let popup { wire.send(popup.surface, Op.surfaceCommit) }
            session.roundtrip()
            return Plan(variant: "destroy-parent-under-popup-grab", expect: "none", patienceMS: 300)
        case 1:
            guard let first = grabbingPopup(parent: top.xdgSurface, serial: serial),
                grabbingPopup(parent: first.xdgSurface, serial: serial) != nil
            else { return Plan(variant: "popups-failed", expect: "any") }
            wire.send(first.popup, Op.popupDestroy) // not the topmost
            return Plan(variant: "destroy-lower-popup", expect: "xdg_wm_base:2")
        case 2:
            wire.send(top.toplevel, Op.toplevelMove, [.uint(seat), .uint(serial)])
            session.roundtrip()
            wire.send(top.toplevel, Op.toplevelDestroy)
            wire.send(top.xdgSurface, Op.xdgSurfaceDestroy)
            wire.send(top.surface, Op.surfaceDestroy)
            session.roundtrip()
            return Plan(variant: "destroy-during-move", expect: "none", patienceMS: 300)
        default:
            // A cursor surface, then the surface destroyed while it is the cursor.
            let cursor = newSurface()
            if let b = session.buffer(width: 8, height: 8) {
                wire.send(cursor, Op.surfaceAttach, [.uint(b), .int(0), .int(0)])
                wire.send(cursor, Op.surfaceCommit)
            }
            wire.send(pointer, 0, [.uint(session.lastEnterSerial ?? 0), .uint(cursor), .int(2), .int(2)])
            session.roundtrip()
            wire.send(cursor, Op.surfaceDestroy)
            wire.send(top.surface, Op.surfaceDestroy)
            session.roundtrip()
            return Plan(variant: "destroy-cursor-surface", expect: "none", patienceMS: 300)
        }
    }

    struct Popup { var surface: UInt32, xdgSurface: UInt32, popup: UInt32 }

    /// A mapped popup that asked for a grab with `serial`.
    mutating func grabbingPopup(parent: UInt32, serial: UInt32) -> Popup? {
        let positioner = wire.newID("xdg_positioner")
        wire.send(wm, Op.wmCreatePositioner, [.uint(positioner)])
        wire.send(positioner, Op.positionerSetSize, [.int(40), .int(30)])
        wire.send(positioner, Op.positionerSetAnchorRect, [.int(5), .int(5), .int(1), .int(1)])
        let s = newSurface()
        let x = wire.newID("xdg_surface")
        wire.send(wm, Op.wmGetXdgSurface, [.uint(x), .uint(s)])
        let p = wire.newID("xdg_popup")
        wire.send(x, Op.xdgSurfaceGetPopup, [.uint(p), .uint(parent), .uint(positioner)])
        wire.send(p, Op.popupGrab, [.uint(seat), .uint(serial)])
        wire.send(s, Op.surfaceCommit)
        guard let configure = session.waitFor({ $0.object == x && $0.opcode == 0 }) else { return nil }
        wire.send(x, Op.xdgSurfaceAckConfigure, [.uint(configure.uint(at: 0))])
        if let b = session.buffer(width: 40, height: 30) {
            wire.send(s, Op.surfaceAttach, [.uint(b), .int(0), .int(0)])
        }
        wire.send(s, Op.surfaceCommit)
        session.roundtrip()
        return Popup(surface: s, xdgSurface: x, popup: p)
    }

    // MARK: Volume

    mutating func flood() -> Plan {
        // A flood the server must survive comes from a client that reads while it writes.
        wire.readsWhileWriting = true
        switch variant(4) {
        case 0:
            let n = 5_000 + rng.int(15_000)
            for _ in 0..<n {
                let cb = wire.newID("wl_callback")
                wire.send(1, Op.displaySync, [.uint(cb)])
                if wire.requestsSent % 512 == 0 { session.drain() }
            }
            session.roundtrip(timeoutMS: 10_000)
            return Plan(variant: "sync-\(n)", expect: "none", patienceMS: 200)
        case 1:
            // A checkerboard: every rectangle its own band entry; the server's region grows.
            let r = newRegion()
            let side = 40 + rng.int(40)
            for y in 0..<side {
                for x in 0..<side where (x + y) % 2 == 0 {
                    wire.send(r, Op.regionAdd, [.int(Int32(x * 3)), .int(Int32(y * 3)), .int(2), .int(2)])
                    if wire.requestsSent % 512 == 0 { session.drain() }
                }
            }
            if let top = session.mapToplevel(width: 256, height: 256) {
                wire.send(top.surface, Op.surfaceSetInputRegion, [.uint(r)])
                wire.send(top.surface, Op.surfaceCommit)
            }
            session.roundtrip(timeoutMS: 10_000)
            return Plan(variant: "checkerboard-\(side)x\(side)", expect: "none", patienceMS: 200)
        case 2:
            let n = 2_000 + rng.int(8_000)
            for i in 0..<n {
                let s = newSurface()
                if i % 2 == 0 { wire.send(s, Op.surfaceDestroy) }
                if wire.requestsSent % 512 == 0 { session.drain() }
            }
            session.roundtrip(timeoutMS: 10_000)
            return Plan(variant: "surfaces-\(n)", expect: "none", patienceMS: 200)
        default:
            // Deep subsurface chains, committed from the bottom.
            let depth = 200 + rng.int(800)
            var parent = newSurface()
            for _ in 0..<depth {
                let c = newSurface()
                _ = subsurface(c, of: parent)
                wire.send(c, Op.surfaceCommit)
                parent = c
                if wire.requestsSent % 512 == 0 { session.drain() }
            }
            session.roundtrip(timeoutMS: 10_000)
            return Plan(variant: "subsurface-chain-\(depth)", expect: "none", patienceMS: 200)
        }
    }

    /// Thousands of requests that each cause events, and never a read: the server must
    /// not grow or stall on it, and may drop it.
    mutating func neverRead() -> Plan {
        let pointer = wire.newID("wl_pointer")
        wire.send(seat, Op.seatGetPointer, [.uint(pointer)])
        _ = session.mapToplevel(width: 200, height: 200)
        let n = 20_000 + rng.int(40_000)
        for _ in 0..<n {
            let cb = wire.newID("wl_callback")
            guard wire.send(1, Op.displaySync, [.uint(cb)]) else { break }
        }
        sleep(1)
        return Plan(variant: "sync-\(n)", expect: "disconnect", neverRead: true)
    }

    mutating func garbage() -> Plan {
        // Random words with headers that point at real objects, any opcode, any size.
        var bytes: [UInt8] = []
        let ids: [UInt32] = [1, compositor, subcompositor, shm, seat, wm] + surfaces.prefix(4) + regions.prefix(4)
        for _ in 0..<(1 + rng.int(20)) {
            let size = UInt32(8 + 4 * rng.int(8))
            let words =
                [rng.pick(ids), size << 16 | UInt32(rng.int(12))]
                + (0..<(Int(size) / 4 - 2)).map { _ in
                    rng.int(3) == 0 ? UInt32(truncatingIfNeeded: rng.next()) : UInt32(rng.int(16))
                }
            for w in words { withUnsafeBytes(of: w.littleEndian) { bytes.append(contentsOf: $0) } }
        }
        wire.write(bytes)
        return Plan(variant: "\(bytes.count)-bytes", expect: "any")
    }
}

extension Attacker {
    // MARK: Layer shell, virtual keyboards, cursor shapes, input methods, xdg-output

    var layerShell: UInt32 { session.bound["zwlr_layer_shell_v1"] ?? 0 }
    var virtualKeyboards: UInt32 { session.bound["zwp_virtual_keyboard_manager_v1"] ?? 0 }
    var cursorShapes: UInt32 { session.bound["wp_cursor_shape_manager_v1"] ?? 0 }
    var inputMethods: UInt32 { session.bound["zwp_input_method_manager_v2"] ?? 0 }
    var xdgOutputs: UInt32 { session.bound["zxdg_output_manager_v1"] ?? 0 }
    var output: UInt32 { session.bound["wl_output"] ?? 0 }

    /// The numbers a client may send where the protocol says nothing about their range.
    mutating func edgeInt() -> Int32 { rng.pick([Int32.min, Int32.max, -1, 0, 1 << 30, -(1 << 30), Int32.min + 1]) }
    mutating func edgeUInt() -> UInt32 { rng.pick([UInt32.max, 0x8000_0000, 0x7fff_ffff, 0, 1, 0xffff_fff8]) }

    /// A virtual keyboard with a small keymap (xkbcommon resolves its includes).
    mutating func virtualKeyboard() -> UInt32 {
        let vk = wire.newID("zwp_virtual_keyboard_v1")
        wire.send(virtualKeyboards, 0, [.uint(seat), .uint(vk)]) // create_virtual_keyboard(seat, id)
        let keymap =
            "xkb_keymap { xkb_keycodes { include \"evdev\" }; xkb_types { include \"complete\" };"
            + " xkb_compat { include \"complete\" }; xkb_symbols { include \"pc+us\" }; };"
        let text = Array(keymap.utf8) + [0]
        let fd = WireSession.memfd(size: 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        wire.send(vk, 0, [.uint(1), .fd(fd), .uint(UInt32(text.count))]) // keymap(xkb_v1, fd, size)
        close(fd)
        return vk
    }

    /// This round's globals with a client's worst numbers: what the protocol forbids gets
    /// its error; what it allows (any margin, size, zone, key code) must not trap the server.
    mutating func newGlobals() -> Plan {
        switch variant(8) {
        case 0:
            // Sizes, margins and a zone no output has room for, committed and arranged; then
            // an anchor that is not a set of edges.
            let s = newSurface()
            let l = wire.newID("zwlr_layer_surface_v1")
            wire.send(layerShell, 0, [.uint(l), .uint(s), .uint(0), .uint(UInt32(rng.int(4))), .string("hostile")])
            for _ in 0..<1 + rng.int(4) {
                wire.send(l, 0, [.uint(edgeUInt()), .uint(edgeUInt())]) // set_size
                wire.send(l, 1, [.uint(UInt32(rng.int(16)))]) // set_anchor
                wire.send(l, 2, [.int(edgeInt())]) // set_exclusive_zone
                wire.send(l, 3, [.int(edgeInt()), .int(edgeInt()), .int(edgeInt()), .int(edgeInt())]) // set_margin
                wire.send(l, 1, [.uint(15)]) // every edge: a size of 0 is valid
                wire.send(s, Op.surfaceCommit)
            }
            session.roundtrip(timeoutMS: 2000)
            wire.send(l, 1, [.uint(16 + UInt32(rng.int(1000)))])
            return Plan(variant: "layer-numbers", expect: "zwlr_layer_surface_v1:2")
        case 1:
            let s = newSurface()
            let l = wire.newID("zwlr_layer_surface_v1")
            wire.send(
                layerShell, 0, [.uint(l), .uint(s), .uint(output), .uint(4 + UInt32(rng.int(1000))), .string("x")])
            return Plan(variant: "layer-invalid-layer", expect: "zwlr_layer_shell_v1:1")
        case 2:
            // A keymap size past the end of its file: read, never mapped (a mapping would fault).
            let vk = wire.newID("zwp_virtual_keyboard_v1")
            wire.send(virtualKeyboards, 0, [.uint(seat), .uint(vk)])
            let fd = WireSession.memfd(size: 4096)
            wire.send(vk, 0, [.uint(1), .fd(fd), .uint(rng.pick([4097, 1 << 20, UInt32.max, 0x8000_0000]))])
            close(fd)
            return Plan(variant: "keymap-size", expect: "wl_display:1")
        case 3:
            let vk = wire.newID("zwp_virtual_keyboard_v1")
            wire.send(virtualKeyboards, 0, [.uint(seat), .uint(vk)])
            wire.send(vk, 1, [.uint(edgeUInt()), .uint(30), .uint(1)]) // key before a keymap
            return Plan(variant: "key-before-keymap", expect: "zwp_virtual_keyboard_v1:0")
        case 4:
            // Keys and modifiers with any code, held when the keyboard goes: they go to the
            // keyboard focus (the good client) and are released there.
            let vk = virtualKeyboard()
            for i in 0..<UInt32(2 + rng.int(6)) {
                wire.send(
                    vk, 1,
                    [
                        .uint(edgeUInt()), .uint(rng.pick([UInt32.max, 0x8000_0000, 0xffff_fff8, 0x300, 42, 30])),
                        .uint(1),
                    ])
                // modifiers
                wire.send(vk, 2, [.uint(edgeUInt()), .uint(edgeUInt()), .uint(edgeUInt()), .uint(edgeUInt())])
                if i % 2 == 0 { session.roundtrip(timeoutMS: 2000) }
            }
            wire.send(vk, 3) // destroy
            session.roundtrip(timeoutMS: 2000)
            return Plan(variant: "virtual-keys", expect: "none")
        case 5:
            let pointer = wire.newID("wl_pointer")
            wire.send(seat, Op.seatGetPointer, [.uint(pointer)])
            let device = wire.newID("wp_cursor_shape_device_v1")
            wire.send(cursorShapes, 1, [.uint(device), .uint(pointer)]) // get_pointer
            wire.send(device, 1, [.uint(edgeUInt()), .uint(rng.int(2) == 0 ? 9 : 0)]) // set_shape, a stale serial
            wire.send(device, 1, [.uint(edgeUInt()), .uint(35 + 1 + UInt32(rng.int(1000)))])
            return Plan(variant: "cursor-shape", expect: "wp_cursor_shape_device_v1:1")
        case 6:
            // A candidate popup on a surface that already has a role (a subsurface).
            let method = wire.newID("zwp_input_method_v2")
            wire.send(inputMethods, 0, [.uint(seat), .uint(method)])
            let parent = newSurface()
            let child = newSurface()
            _ = subsurface(child, of: parent)
            let popup = wire.newID("zwp_input_popup_surface_v2")
            wire.send(method, 4, [.uint(popup), .uint(child)])
            return Plan(variant: "input-popup-role", expect: "wl_display:0")
        default:
            // xdg outputs outliving their manager, destroyed in any order.
            var made: [UInt32] = []
            for _ in 0..<1 + rng.int(5) {
                let x = wire.newID("zxdg_output_v1")
                wire.send(xdgOutputs, 1, [.uint(x), .uint(output)]) // get_xdg_output(id, output)
                made.append(x)
            }
            wire.send(xdgOutputs, 0) // destroy
            for x in made.shuffled(using: &rng) { wire.send(x, 0) }
            session.roundtrip(timeoutMS: 2000)
            return Plan(variant: "xdg-output", expect: "none")
        }
    }
}
