import InputRouter
import Testing

@Suite struct TabletTests {
    static let all: BoundDevices = [.pointer, .keyboard, .touch, .tablet]
    let pen = DeviceID(5)
    let pad = DeviceID(6)

    /// A at 0,0 and B at 200,0 (100×100 each) on a 1000×1000 output: normalised 0.01 is 10.
    func setUp(bClient: BoundDevices = TabletTests.all) -> (Harness, NodeID, NodeID) {
        let h = Harness()
        let a = h.toplevel("A", h.client("a", Self.all), Rect(0, 0, 100, 100))
        let b = h.toplevel("B", h.client("b", bClient), Rect(200, 0, 100, 100))
        h.seat.notifyDeviceAdded(pen, capabilities: .tabletTool)
        h.seat.notifyDeviceAdded(pad, capabilities: .tabletPad)
        return (h, a, b)
    }

    func axes(_ x: Double, _ y: Double, pressure: Double? = nil) -> TabletAxes {
        TabletAxes(x: x / 1000, y: y / 1000, pressure: pressure)
    }
    func proximity(_ h: Harness, _ inProximity: Bool, _ x: Double, _ y: Double) -> [String] {
        h.step {
            h.seat.notifyTabletProximity(
                time: h.tick(), device: pen, tool: TabletTool(type: .pen, serial: 7),
                inProximity: inProximity, axes: axes(x, y))
        }
    }
    func move(_ h: Harness, _ x: Double, _ y: Double, pressure: Double? = nil) -> [String] {
        h.step { h.seat.notifyTabletAxis(time: h.tick(), device: pen, axes: axes(x, y, pressure: pressure)) }
    }
    func tip(_ h: Harness, _ down: Bool, _ x: Double, _ y: Double) -> [String] {
        h.step { h.seat.notifyTabletTip(time: h.tick(), device: pen, down: down, axes: axes(x, y)) }
    }

    @Test func proximityIsPairedAcrossSurfaces() {
        let (h, _, _) = setUp()
        #expect(
            proximity(h, true, 10, 10) == [
                "seat0 tablet.proximity_in \"A\" dev5 pen serial 7", "seat0 tablet.motion \"A\" dev5 at 10,10",
                "seat0 tablet.frame client1(\"a\")",
            ])
        #expect(
            move(h, 20, 30, pressure: 0.5) == [
                "seat0 tablet.motion \"A\" dev5 at 20,30 pressure 0.5", "seat0 tablet.frame client1(\"a\")",
            ])
        #expect(
            move(h, 250, 50) == [
                "seat0 tablet.proximity_out \"A\" dev5", "seat0 tablet.proximity_in \"B\" dev5 pen serial 7",
                "seat0 tablet.motion \"B\" dev5 at 50,50", "seat0 tablet.frame client1(\"a\")",
                "seat0 tablet.frame client2(\"b\")",
            ])
        // Over nothing: out, and motion nobody takes.
        #expect(
            move(h, 500, 500) == [
                "seat0 tablet.proximity_out \"B\" dev5", "seat0 dropped tablet.motion",
                "seat0 tablet.frame client2(\"b\")",
            ])
        #expect(move(h, 30, 30).first == "seat0 tablet.proximity_in \"A\" dev5 pen serial 7")
        #expect(
            proximity(h, false, 30, 30) == [
                "seat0 tablet.proximity_out \"A\" dev5", "seat0 tablet.frame client1(\"a\")",
            ])
        #expect(h.seat.tabletToolsInProximity == 0)
        #expect(move(h, 30, 30) == ["seat0 dropped tablet.motion"])
        h.expectClean()
    }

    @Test func theSurfaceUnderTheTipKeepsTheStroke() {
        let (h, _, _) = setUp()
        _ = proximity(h, true, 10, 10)
        #expect(
            tip(h, true, 10, 10) == [
                "seat0 tablet.motion \"A\" dev5 at 10,10", "seat0 tablet.down \"A\" dev5",
                "seat0 tablet.frame client1(\"a\")",
            ])
        // Over B, still A's, in A's coordinates.
        #expect(move(h, 250, 50) == ["seat0 tablet.motion \"A\" dev5 at 250,50", "seat0 tablet.frame client1(\"a\")"])
        #expect(tip(h, true, 250, 50) == ["seat0 dropped tablet.tip"]) // a second down
        // Tip up: the up goes to A, then the tool re-picks onto B.
        #expect(
            tip(h, false, 250, 50) == [
                "seat0 tablet.motion \"A\" dev5 at 250,50", "seat0 tablet.up \"A\" dev5",
                "seat0 tablet.proximity_out \"A\" dev5",
                "seat0 tablet.proximity_in \"B\" dev5 pen serial 7", "seat0 tablet.motion \"B\" dev5 at 50,50",
                "seat0 tablet.frame client1(\"a\")", "seat0 tablet.frame client2(\"b\")",
            ])
        h.expectClean()
    }

    @Test func tipDownIsAPressSerialForItsClientOnly() {
        let (h, a, _) = setUp()
        _ = proximity(h, true, 10, 10)
        h.seat.notifyTabletTip(time: h.tick(), device: pen, down: true, axes: axes(10, 10))
        let serial = h.router.queue.deliveries.compactMap { d -> UInt32? in
            if case .tabletDown(_, _, _, _, let s) = d { return s } else { return nil }
        }.first
        _ = h.flush()
        let ca = h.tree.client(of: a)!
        #expect(serial != nil)
        #expect(h.seat.serialEntry(serial ?? 0, client: ca, for: .popupGrab)?.action == .tabletDown)
        #expect(h.seat.serialEntry(serial ?? 0, client: ClientID(index: 2), for: .popupGrab) == nil)
        // A popup of A's may take its grab with that serial, and the tool keeps working.
        let popup = h.tree.createNode(.popup, name: "P", client: ca, parent: h.output, frame: Rect(0, 100, 50, 50))
        h.tree.setNextResponder(popup, a)
        #expect(h.seat.beginPopupGrab(popup))
        _ = h.flush()
        #expect(tip(h, false, 10, 10).contains("seat0 tablet.up \"A\" dev5"))
        h.expectClean()
    }

    @Test(arguments: ["device", "proximity-out", "unmap", "destroy", "unbind"])
    func nothingStaysDownWhenTheStrokeIsCut(how: String) {
        let (h, a, _) = setUp()
        _ = proximity(h, true, 10, 10)
        _ = tip(h, true, 10, 10)
        #expect(
            h.step { h.seat.notifyTabletButton(time: h.tick(), device: pen, button: 0x14b, state: .pressed) }
                == ["seat0 tablet.button \"A\" dev5 BTN_STYLUS pressed", "seat0 tablet.frame client1(\"a\")"])
        let lines = h.step {
            switch how {
            case "device": h.seat.notifyDeviceRemoved(pen, time: h.tick())
            case "proximity-out":
                h.seat.notifyTabletProximity(
                    time: h.tick(), device: pen, tool: TabletTool(type: .pen), inProximity: false,
                    axes: axes(10, 10))
            case "unmap": h.tree.setMapped(a, false)
            case "destroy": h.tree.destroy(a)
            default: h.seat.setBound(.tablet, for: h.tree.client(of: a)!, false)
            }
        }
        switch how {
        case "unmap": #expect(lines == ["seat0 tablet.proximity_out \"A\" dev5", "seat0 tablet.frame client1(\"a\")"])
        case "destroy": #expect(lines == [])
        default:
            #expect(
                lines == [
                    "seat0 tablet.up \"A\" dev5", "seat0 tablet.button \"A\" dev5 BTN_STYLUS released",
                    "seat0 tablet.proximity_out \"A\" dev5", "seat0 tablet.frame client1(\"a\")",
                ])
        }
        // Nothing more reaches A for that stroke.
        let after = h.step {
            h.seat.notifyTabletAxis(time: h.tick(), device: pen, axes: axes(20, 20))
            h.seat.notifyTabletButton(time: h.tick(), device: pen, button: 0x14b, state: .released)
            h.seat.notifyTabletTip(time: h.tick(), device: pen, down: false, axes: axes(20, 20))
        }
        #expect(!after.contains { $0.contains("\"A\"") })
        if how == "device" || how == "proximity-out" { #expect(h.seat.tabletToolsInProximity == 0) }
        h.expectClean()
    }

    // Pads: PadTests.swift.

    @Test func aClientWithoutTheTabletLeavesItToTheCompositor() {
        let (h, _, b) = setUp(bClient: [.pointer, .keyboard])
        var seen: [NodeEvent] = []
        h.seat.handler = { event in
            switch event {
            case .padButton, .tabletProximity, .tabletTip:
                seen.append(event)
                return .handled
            default: return .notHandled
            }
        }
        #expect(h.seat.setKeyboardFocus(b))
        _ = h.flush()
        #expect(
            h.step { h.seat.notifyPadButton(time: h.tick(), device: pad, button: 1, state: .pressed) }
                == ["seat0 handled pad.button by seat0"])
        // The tool over B: B's client never hears of it; the seat's handler does.
        #expect(proximity(h, true, 250, 50) == ["seat0 handled tablet.proximity by seat0"])
        #expect(tip(h, true, 250, 50) == ["seat0 handled tablet.tip by seat0"])
        #expect(tip(h, false, 250, 50) == ["seat0 handled tablet.tip by seat0"])
        #expect(
            seen == [
                .padButton(button: 1, state: .pressed), .tabletProximity(inProximity: true, at: Point(250, 50)),
                .tabletTip(down: true, at: Point(250, 50)), .tabletTip(down: false, at: Point(250, 50)),
            ])
        // Over A (bound), the compositor's responder gets its proximity out first.
        #expect(
            move(h, 10, 10) == [
                "seat0 handled tablet.proximity by seat0", "seat0 tablet.proximity_in \"A\" dev5 pen serial 7",
                "seat0 tablet.motion \"A\" dev5 at 10,10", "seat0 tablet.frame client1(\"a\")",
            ])
        #expect(seen.last == .tabletProximity(inProximity: false, at: Point(10, 10)))
        h.expectClean()
    }

    /// A client may bind the tablet and no pointer (on a seat without a mouse, say): its
    /// surface takes the tool as a client surface all the same, stroke and buttons included.
    @Test func aClientWithTheTabletAndNoPointerTakesTheTool() {
        let (h, _, _) = setUp(bClient: [.tablet])
        #expect(
            proximity(h, true, 250, 50) == [
                "seat0 tablet.proximity_in \"B\" dev5 pen serial 7", "seat0 tablet.motion \"B\" dev5 at 50,50",
                "seat0 tablet.frame client2(\"b\")",
            ])
        #expect(
            tip(h, true, 250, 50) == [
                "seat0 tablet.motion \"B\" dev5 at 50,50", "seat0 tablet.down \"B\" dev5",
                "seat0 tablet.frame client2(\"b\")",
            ])
        #expect(
            h.step { h.seat.notifyTabletButton(time: h.tick(), device: pen, button: 0x14b, state: .pressed) }
                == ["seat0 tablet.button \"B\" dev5 BTN_STYLUS pressed", "seat0 tablet.frame client2(\"b\")"])
        // Unplugged mid-stroke: B is told everything ends.
        #expect(
            h.step { h.seat.notifyDeviceRemoved(pen, time: h.tick()) } == [
                "seat0 tablet.up \"B\" dev5", "seat0 tablet.button \"B\" dev5 BTN_STYLUS released",
                "seat0 tablet.proximity_out \"B\" dev5", "seat0 tablet.frame client2(\"b\")",
            ])
        h.expectClean()
    }

    /// Axes stay small, and deliveries no larger than a gesture's: the queue is the hot path.
    @Test func valuesStaySmall() {
        #expect(MemoryLayout<TabletAxes>.size <= 48)
        let gesture = MemoryLayout<(SeatID, NodeID, UInt64, GestureEvent)>.size
        #expect(
            MemoryLayout<Delivery>.size <= gesture + 1, "Delivery \(MemoryLayout<Delivery>.size), gesture \(gesture)")
        var a = TabletAxes(x: 0, y: 0, pressure: 0.5)
        a.pressure = nil
        #expect(a == TabletAxes(x: 0, y: 0))
        #expect(TabletAxes(x: 0, y: 0, tiltX: 0) != TabletAxes(x: 0, y: 0))
    }

    /// Random tablet, pad, pointer and scene events: the checker stays clean and nothing
    /// stays in proximity once the devices are gone.
    @Test(arguments: 0..<40 as Range<UInt64>)
    func invariantsHoldWithTabletsMixedIn(seed: UInt64) {
        var rng = SeededRandom(seed: seed &* 104_729 &+ 11)
        let h = Harness(outputSize: Rect(0, 0, 400, 300))
        var clients: [ClientID] = []
        var surfaces: [NodeID] = []
        let pens = [DeviceID(1), DeviceID(2)]
        let pad = DeviceID(3)
        for p in pens { h.seat.notifyDeviceAdded(p, capabilities: .tabletTool) }
        h.seat.notifyDeviceAdded(pad, capabilities: .tabletPad)
        let padLayout = TabletPadLayout(
            buttons: 2, rings: 1, strips: 1,
            groups: [TabletPadGroup(buttons: [0, 1], rings: [0], strips: [0], modes: 3, toggles: [1])],
            tablet: pens[0])
        h.seat.notifyPadAdded(pad, layout: padLayout, time: 0)
        // The seat takes the tool's proximity and pad buttons, nothing else.
        h.seat.handler = { event in
            switch event {
            case .tabletProximity, .padButton: .handled
            default: .notHandled
            }
        }

        func randomRect() -> Rect {
            Rect(
                Int32.random(in: -20...380, using: &rng), Int32.random(in: -20...280, using: &rng),
                Int32.random(in: 1...200, using: &rng), Int32.random(in: 1...200, using: &rng))
        }
        func addSurface() {
            if clients.isEmpty || Int.random(in: 0..<4, using: &rng) == 0 {
                let all: [BoundDevices] = [[], .tablet, [.keyboard, .tablet], [.pointer, .keyboard], Self.all]
                clients.append(h.client("c\(clients.count)", all.randomElement(using: &rng)!))
            }
            let c = clients.randomElement(using: &rng)!
            let own = surfaces.filter { h.tree.client(of: $0) == c }
            let kind: NodeKind = own.isEmpty ? .toplevel : [.toplevel, .subsurface, .popup].randomElement(using: &rng)!
            let parent = kind == .subsurface ? own.randomElement(using: &rng)! : h.output
            let n = h.tree.createNode(
                kind, client: c, parent: parent, frame: randomRect(),
                layer: Bool.random(using: &rng) ? .above : .below)
            if kind == .popup, let p = own.randomElement(using: &rng) { h.tree.setNextResponder(n, p) }
            surfaces.append(n)
        }
        for _ in 0..<6 { addSurface() }
        _ = h.flush()

        for _ in 0..<2000 {
            let t = h.tick()
            let pen = pens.randomElement(using: &rng)!
            let a = TabletAxes(
                x: Double.random(in: -0.1...1.1, using: &rng), y: Double.random(in: -0.1...1.1, using: &rng),
                pressure: Double.random(in: 0...1, using: &rng))
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<8:
                h.seat.notifyTabletProximity(
                    time: t, device: pen, tool: TabletTool(type: .pen, serial: 1),
                    inProximity: Int.random(in: 0..<3, using: &rng) > 0, axes: a)
            case 8..<40: h.seat.notifyTabletAxis(time: t, device: pen, axes: a)
            case 40..<50: h.seat.notifyTabletTip(time: t, device: pen, down: Bool.random(using: &rng), axes: a)
            case 50..<56:
                h.seat.notifyTabletButton(
                    time: t, device: pen, button: [0x14b, 0x14c].randomElement(using: &rng)!,
                    state: Bool.random(using: &rng) ? .pressed : .released)
            case 56..<62:
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    h.seat.notifyPadButton(
                        time: t, device: pad, button: UInt32.random(in: 0...2, using: &rng),
                        state: Bool.random(using: &rng) ? .pressed : .released,
                        mode: UInt32.random(in: 0...2, using: &rng))
                case 1:
                    h.seat.notifyPadRing(
                        time: t, device: pad, ring: 0, position: 45, source: .finger,
                        mode: UInt32.random(in: 0...2, using: &rng))
                default: h.seat.notifyPadStrip(time: t, device: pad, strip: 0, position: 0.5, source: .finger)
                }
            case 62..<66: h.seat.notifyPointerMotion(time: t, dx: 10, dy: -5)
            case 66..<71: if let n = surfaces.randomElement(using: &rng) { h.seat.setKeyboardFocus(n) }
            case 71..<76:
                if let n = surfaces.randomElement(using: &rng) { h.tree.move(n, to: (randomRect().x, randomRect().y)) }
            case 76..<80: if let n = surfaces.randomElement(using: &rng) { h.tree.setMapped(n, !h.tree.isMapped(n)) }
            case 80..<82: if let n = surfaces.randomElement(using: &rng) { h.tree.raiseToTop(n) }
            case 82..<85:
                if let n = surfaces.randomElement(using: &rng) { h.tree.destroy(n) }
                surfaces.removeAll { !h.tree.isAlive($0) }
            case 85..<89: addSurface()
            case 89..<90:
                if let c = clients.randomElement(using: &rng) {
                    h.router.removeClient(c)
                    clients.removeAll { $0 == c }
                    surfaces.removeAll { !h.tree.isAlive($0) }
                }
            case 90..<93:
                h.seat.notifyDeviceRemoved(pen, time: t)
                h.seat.notifyDeviceAdded(pen, capabilities: .tabletTool)
                if Bool.random(using: &rng) {
                    h.seat.notifyDeviceRemoved(pad, time: t)
                    h.seat.notifyDeviceAdded(pad, capabilities: .tabletPad)
                    h.seat.notifyPadAdded(pad, layout: padLayout, time: t)
                }
            case 93..<96:
                if let c = clients.randomElement(using: &rng) {
                    h.seat.setBound(.tablet, for: c, Bool.random(using: &rng))
                }
            default:
                if let n = surfaces.filter({ h.tree.kind(of: $0) == .popup }).randomElement(using: &rng) {
                    h.seat.beginPopupGrab(n)
                }
            }
            _ = h.flush()
            if !h.sink.violations.isEmpty { break }
        }
        for p in pens + [pad] { h.seat.notifyDeviceRemoved(p, time: h.tick()) }
        _ = h.flush()
        #expect(h.sink.violations == [], "seed \(seed)")
        #expect(h.seat.tabletToolsInProximity == 0)
        #expect(h.seat.padFocus(device: pad) == nil)
    }
}
