import InputRouter
import Testing

/// Tablet pads follow the keyboard focus (Seat+Pad.swift): enter and leave with it, mode
/// switches after each enter and when an event reports a new mode, and nothing stays
/// pressed when the focus moves, the surface goes or the pad is unplugged.
@Suite struct PadTests {
    static let all = TabletTests.all
    let pen = TabletTests().pen
    let pad = TabletTests().pad

    /// Three buttons, a ring and a strip in one group of two modes; button 0 switches them.
    var layout: TabletPadLayout {
        TabletPadLayout(
            buttons: 3, rings: 1, strips: 1,
            groups: [TabletPadGroup(buttons: [0, 1, 2], rings: [0], strips: [0], modes: 2, toggles: [0])],
            tablet: pen)
    }

    /// A and B, both clients bound to the tablet unless `bClient` says otherwise: the tablet
    /// tests' scene, with the same pen and pad.
    func setUp(bClient: BoundDevices = PadTests.all) -> (Harness, NodeID, NodeID) {
        TabletTests().setUp(bClient: bClient)
    }

    func pads(_ lines: [String]) -> [String] { lines.filter { $0.contains(" pad.") } }
    func press(_ h: Harness, _ b: UInt32, _ state: ButtonState, mode: UInt32 = 0) -> [String] {
        h.step {
            h.seat.handle(
                InputEvent(time: h.tick(), device: pad, .tabletPadButton(button: b, state: state, mode: mode)))
        }
    }

    @Test func thePadEntersTheKeyboardFocusAndFollowsIt() {
        let (h, a, b) = setUp()
        #expect(h.seat.setKeyboardFocus(a))
        _ = h.flush()
        // Described while A has the focus: the enter and the group's mode come at once.
        #expect(
            h.step { h.seat.handle(InputEvent(time: h.tick(), device: pad, .tabletPadAdded(layout))) } == [
                "seat0 pad.enter \"A\" dev6", "seat0 pad.mode_switch \"A\" dev6 group 0 mode 0",
            ])
        #expect(h.seat.padFocus(device: pad) == a)
        #expect(press(h, 1, .pressed) == ["seat0 pad.button \"A\" dev6 1 pressed"])
        // The focus moves with button 1 held: A gets its release, then the leave; B the enter.
        #expect(
            pads(h.step { h.seat.setKeyboardFocus(b) }) == [
                "seat0 pad.button \"A\" dev6 1 released", "seat0 pad.leave \"A\" dev6",
                "seat0 pad.enter \"B\" dev6", "seat0 pad.mode_switch \"B\" dev6 group 0 mode 0",
            ])
        // The release of a press B never saw goes nowhere.
        #expect(press(h, 1, .released) == ["seat0 dropped pad.button"])
        #expect(
            h.step {
                h.seat.notifyPadRing(time: h.tick(), device: pad, ring: 0, position: 90, source: .finger)
                h.seat.notifyPadStrip(time: h.tick(), device: pad, strip: 0, position: 0.25, source: .unknown)
            } == ["seat0 pad.ring \"B\" dev6 0 90 finger", "seat0 pad.strip \"B\" dev6 0 0.25 unknown"])
        // No keyboard focus: the pad leaves, and its events find no one.
        #expect(pads(h.step { h.seat.setKeyboardFocus(nil) }) == ["seat0 pad.leave \"B\" dev6"])
        #expect(press(h, 2, .pressed) == ["seat0 dropped pad.button"])
        h.expectClean()
    }

    @Test func aModeButtonSwitchesTheGroupsModeBeforeItsPress() {
        let (h, a, _) = setUp()
        h.seat.handle(InputEvent(time: h.tick(), device: pad, .tabletPadAdded(layout)))
        #expect(h.seat.setKeyboardFocus(a))
        _ = h.flush()
        #expect(
            press(h, 0, .pressed, mode: 1) == [
                "seat0 pad.mode_switch \"A\" dev6 group 0 mode 1", "seat0 pad.button \"A\" dev6 0 pressed",
            ])
        #expect(press(h, 0, .released, mode: 1) == ["seat0 pad.button \"A\" dev6 0 released"])
        #expect(h.seat.padMode(device: pad, group: 0) == 1)
        // A later enter tells the new surface the mode the group is in now.
        h.seat.setKeyboardFocus(nil)
        _ = h.flush()
        #expect(
            pads(h.step { h.seat.setKeyboardFocus(a) }) == [
                "seat0 pad.enter \"A\" dev6", "seat0 pad.mode_switch \"A\" dev6 group 0 mode 1",
            ])
        h.expectClean()
    }

    /// However the focus's hold ends, nothing stays pressed and the pad leaves (or, for a
    /// destroyed surface, is simply no longer on it).
    @Test(arguments: ["device", "tablet", "destroy", "unmap", "unbind"])
    func nothingStaysPressedWhenTheFocusEnds(how: String) {
        let (h, a, _) = setUp()
        let client = h.tree.client(of: a)!
        h.seat.handle(InputEvent(time: h.tick(), device: pad, .tabletPadAdded(layout)))
        #expect(h.seat.setKeyboardFocus(a))
        _ = h.flush()
        #expect(press(h, 2, .pressed) == ["seat0 pad.button \"A\" dev6 2 pressed"])
        let lines = pads(
            h.step {
                switch how {
                case "device": h.seat.notifyDeviceRemoved(pad, time: h.tick())
                case "tablet": h.seat.notifyDeviceRemoved(pen, time: h.tick())
                case "destroy": h.tree.destroy(a)
                case "unmap": h.tree.setMapped(a, false)
                default: h.seat.setBound(.tablet, for: client, false)
                }
            })
        switch how {
        case "destroy": #expect(lines == [])
        case "unmap": #expect(lines == ["seat0 pad.leave \"A\" dev6"])
        default: #expect(lines == ["seat0 pad.button \"A\" dev6 2 released", "seat0 pad.leave \"A\" dev6"])
        }
        #expect(h.seat.padFocus(device: pad) == nil)
        if how == "device" { #expect(h.seat.padLayout(pad) == nil) }
        #expect(!pads(press(h, 2, .released)).contains { $0.contains("\"A\"") })
        h.expectClean()
    }

    @Test func aPadWaitsForItsTabletAndForAClientThatBoundIt() {
        let h = Harness()
        let a = h.toplevel("A", h.client("a", [.pointer, .keyboard]), Rect(0, 0, 100, 100))
        h.seat.notifyDeviceAdded(pad, capabilities: .tabletPad)
        #expect(h.seat.setKeyboardFocus(a))
        _ = h.flush()
        h.seat.handle(InputEvent(time: h.tick(), device: pad, .tabletPadAdded(layout)))
        // A's client has no tablet seat, and the pen is not plugged in: no enter.
        #expect(h.flush() == [])
        #expect(press(h, 1, .pressed) == ["seat0 dropped pad.button"])
        h.seat.setBound(.tablet, for: h.tree.client(of: a)!, true)
        #expect(h.flush() == [])
        #expect(
            pads(h.step { h.seat.notifyDeviceAdded(pen, capabilities: .tabletTool) }) == [
                "seat0 pad.enter \"A\" dev6", "seat0 pad.mode_switch \"A\" dev6 group 0 mode 0",
            ])
        h.expectClean()
    }

    @Test func aClientWithoutTheTabletLeavesItToTheCompositor() {
        let (h, _, b) = setUp(bClient: [.pointer, .keyboard])
        h.seat.handle(InputEvent(time: h.tick(), device: pad, .tabletPadAdded(layout)))
        var seen: [NodeEvent] = []
        h.seat.handler = { event in
            if case .padButton = event {
                seen.append(event)
                return .handled
            }
            return .notHandled
        }
        #expect(pads(h.step { h.seat.setKeyboardFocus(b) }) == [])
        #expect(press(h, 1, .pressed) == ["seat0 handled pad.button by seat0"])
        #expect(seen == [.padButton(button: 1, state: .pressed)])
        h.expectClean()
    }

    @Test func layoutsKeepWhatLibinputDescribed() {
        let l = layout
        #expect(l.groups == [TabletPadGroup(buttons: [0, 1, 2], rings: [0], strips: [0], modes: 2, toggles: [0])])
        #expect(
            l.group(ofButton: 2) == 0 && l.group(ofButton: 3) == nil && l.group(ofRing: 0) == 0
                && l.group(ofStrip: 1) == nil)
        #expect(l.isToggle(0) && !l.isToggle(1))
        // No groups: one with everything, in one mode, as libinput does.
        #expect(TabletPadLayout(buttons: 2, rings: 1).groups == [TabletPadGroup(buttons: [0, 1], rings: [0])])
        let two = TabletPadLayout(
            buttons: 4,
            groups: [
                TabletPadGroup(buttons: [0, 1], modes: 3, mode: 2),
                TabletPadGroup(buttons: [2, 3], modes: 4, mode: 1, toggles: [3]),
            ])
        #expect(
            two.groups.map(\.buttons) == [[0, 1], [2, 3]] && two.mode(ofGroup: 0) == 2 && two.modeCount(ofGroup: 1) == 4
        )
        // A trivial value: an event that carries it is no bigger than the largest other event.
        #expect(MemoryLayout<TabletPadLayout>.size <= MemoryLayout<(TabletTool, Bool, TabletAxes)>.size)
    }
}
