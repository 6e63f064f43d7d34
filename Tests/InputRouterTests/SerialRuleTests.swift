// Every request that cites a serial × every delivery that carries one × who cites it. The
// expected table is written from the protocol texts and docs/routing.md's "Serials" table
// (what wlroots, Mutter and Smithay accept), never read from `SerialRules`:
// - xdg_toplevel.move/resize and wl_data_device.start_drag need "the serial of the user
//   event", an implicit grab still going on: a held button, a finger down, a tablet tip;
// - xdg_popup.grab: "the serial of the user event", press or release, of a button, key,
//   finger or tablet; a nested menu may cite the keyboard enter its parent menu received;
// - wl_pointer.set_cursor: "serial number of the enter event";
// - set_selection: the serial of an input event, or the enter of a keyboard focus still held;
// - xdg_activation_token_v1.set_serial: a user action (press or release), not focus events;
// - wp_cursor_shape_device_v1.set_shape on a tablet tool: "the latest
//   zwp_tablet_tool_v2.proximity_in serial number sent to the client" (on a pointer it is
//   set_cursor's rule).
import InputRouter
import Testing

@Suite struct SerialRuleTests {
    static let all: BoundDevices = [.pointer, .keyboard, .touch, .tablet]
    static let pen = DeviceID(5)

    /// One delivery that carries a serial, made on seat 0 for client "a"'s window A at
    /// (0,0,100,100), and how to make it; the button, finger and tip stay down.
    enum Made: String, CaseIterable {
        case pointerEnter, buttonPress, buttonRelease, keyboardEnter, keyPress, keyRelease, modifiers
        case touchDown, touchUp, tabletDown, tabletProximityIn
    }

    /// Requests in `SerialRequest.allCases` order: move, resize, drag, popupGrab, setCursor,
    /// selection, activation, setToolCursor. "Y" where a request may cite the delivery's serial.
    static let expected: [Made: String] = [
        .pointerEnter: "....Y...",
        .buttonPress: "YYYY.YY.",
        .buttonRelease: "...Y.YY.",
        .keyboardEnter: "...Y.Y..",
        .keyPress: "...Y.YY.",
        .keyRelease: "...Y.YY.",
        .modifiers: ".....Y..",
        .touchDown: "YYYY.YY.",
        .touchUp: "...Y.YY.",
        .tabletDown: "YYYY.YY.",
        .tabletProximityIn: ".......Y",
    ]

    /// After 70 more keys typed into A (140 entries, past the record's 128), with A still
    /// under the pointer and the tool, and holding the keyboard: only the enters (and the
    /// tool's proximity) of the focus A still has may be cited, everything else is forgotten.
    static let expectedWhenStale: [Made: String] = [
        .pointerEnter: "....Y...",
        .keyboardEnter: "...Y.Y..",
        .tabletProximityIn: ".......Y",
    ]

    func setUp() -> (Harness, a: ClientID, b: ClientID, other: Seat) {
        let h = Harness()
        let a = h.client("a", Self.all)
        let b = h.client("b", Self.all)
        h.toplevel("A", a, Rect(0, 0, 100, 100))
        h.toplevel("B", b, Rect(200, 0, 100, 100))
        let other = h.router.addSeat(name: "seat1")
        other.setBound(Self.all, for: a, true)
        h.seat.notifyDeviceAdded(Self.pen, capabilities: .tabletTool)
        _ = h.flush()
        return (h, a, b, other)
    }

    /// The serial of the last delivery of the kind `made` names that the step queued.
    func serial(of made: Made, in deliveries: [Delivery]) -> UInt32? {
        deliveries.reversed().lazy.compactMap { d -> UInt32? in
            switch (made, d) {
            case (.pointerEnter, .pointerEnter(_, _, _, let s)): s
            case (.buttonPress, .pointerButton(_, _, _, _, .pressed, let s)): s
            case (.buttonRelease, .pointerButton(_, _, _, _, .released, let s)): s
            case (.keyboardEnter, .keyboardEnter(_, _, _, let s)): s
            case (.keyPress, .key(_, _, _, _, .pressed, let s)): s
            case (.keyRelease, .key(_, _, _, _, .released, let s)): s
            case (.modifiers, .modifiers(_, _, _, let s)): s
            case (.touchDown, .touchDown(_, _, _, _, _, let s)): s
            case (.touchUp, .touchUp(_, _, _, _, let s)): s
            case (.tabletDown, .tabletDown(_, _, _, _, let s)): s
            case (.tabletProximityIn, .tabletProximityIn(_, _, _, _, let s)): s
            default: nil
            }
        }.first
    }

    /// Makes `made` for A on seat 0 and returns its serial.
    func make(_ made: Made, _ h: Harness) -> UInt32? {
        let seat = h.seat
        let node = h.tree.hitTest(Point(10, 10))!.node
        var queued: [Delivery] = []
        func step(_ body: () -> Void) {
            body()
            queued += h.router.queue.deliveries
            _ = h.flush()
        }
        switch made {
        case .pointerEnter:
            step { seat.notifyPointerWarp(time: h.tick(), to: Point(10, 10)) }
        case .buttonPress, .buttonRelease:
            step { seat.notifyPointerWarp(time: h.tick(), to: Point(10, 10)) }
            step { seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .pressed) }
            if made == .buttonRelease {
                step { seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .released) }
            }
        case .keyboardEnter:
            step { seat.setKeyboardFocus(node) }
        case .keyPress, .keyRelease:
            step { seat.setKeyboardFocus(node) }
            step { seat.notifyKey(time: h.tick(), key: 30, state: .pressed) }
            if made == .keyRelease { step { seat.notifyKey(time: h.tick(), key: 30, state: .released) } }
        case .modifiers:
            step { seat.setKeyboardFocus(node) }
            step { seat.notifyModifiers(Modifiers(depressed: 1)) }
        case .touchDown, .touchUp:
            step {
                seat.notifyTouchDown(time: h.tick(), slot: 0, at: Point(10, 10))
                seat.notifyTouchFrame()
            }
            if made == .touchUp {
                step {
                    seat.notifyTouchUp(time: h.tick(), slot: 0)
                    seat.notifyTouchFrame()
                }
            }
        case .tabletDown, .tabletProximityIn:
            let axes = TabletAxes(x: 0.01, y: 0.01)
            step {
                seat.notifyTabletProximity(
                    time: h.tick(), device: Self.pen, tool: TabletTool(type: .pen, serial: 7),
                    inProximity: true, axes: axes)
            }
            if made == .tabletDown {
                step { seat.notifyTabletTip(time: h.tick(), device: Self.pen, down: true, axes: axes) }
            }
        }
        return serial(of: made, in: queued)
    }

    func row(_ seat: Seat, _ serial: UInt32, _ client: ClientID) -> String {
        String(SerialRequest.allCases.map { seat.serialEntry(serial, client: client, for: $0) != nil ? "Y" : "." })
    }

    @Test(arguments: Made.allCases)
    func eachRequestMayCiteWhatTheTableSays(_ made: Made) throws {
        let (h, a, b, other) = setUp()
        let serial = try #require(make(made, h), "no \(made) delivered")
        #expect(row(h.seat, serial, a) == Self.expected[made], "A citing its own \(made)")
        #expect(row(h.seat, serial, b) == "........", "B citing A's \(made)")
        #expect(row(other, serial, a) == "........", "A citing its \(made) of seat0 on seat1")
        // The record keeps the newest 128 entries: 70 keys (a press and a release each) later,
        // only the enters of a focus A still holds are left.
        h.seat.setKeyboardFocus(h.tree.hitTest(Point(10, 10))!.node)
        for i in 0..<70 {
            h.seat.notifyKey(time: h.tick(), key: UInt32(40 + i % 2), state: .pressed)
            h.seat.notifyKey(time: h.tick(), key: UInt32(40 + i % 2), state: .released)
        }
        _ = h.flush()
        #expect(row(h.seat, serial, a) == Self.expectedWhenStale[made, default: "........"], "A citing a stale \(made)")
    }

    /// A serial stops being citable when what it stood for is over: a move needs the button
    /// still held; set_cursor the newest enter; a keyboard enter the focus still held; a
    /// tool's cursor the newest proximity_in.
    @Test func aSerialEndsWithWhatItStoodFor() throws {
        let (h, a, _, _) = setUp()
        let press = try #require(make(.buttonPress, h))
        #expect(row(h.seat, press, a) == "YYYY.YY.")
        h.seat.notifyPointerButton(time: h.tick(), button: 0x110, state: .released)
        _ = h.flush()
        #expect(row(h.seat, press, a) == "...Y.YY.") // a menu may still open on it; no move

        _ = h.warp(250, 10) // out of A, so the warp back sends a new enter
        let enter = try #require(make(.pointerEnter, h))
        #expect(row(h.seat, enter, a) == "....Y...")
        _ = h.warp(250, 10) // into B: A's enter is no longer the newest
        #expect(row(h.seat, enter, a) == "........")

        let focus = try #require(make(.keyboardEnter, h))
        #expect(row(h.seat, focus, a) == "...Y.Y..")
        h.seat.setKeyboardFocus(nil)
        _ = h.flush()
        #expect(row(h.seat, focus, a) == "........")

        // A tool's proximity_in, until the tool comes into proximity again.
        let proximity = try #require(make(.tabletProximityIn, h))
        #expect(row(h.seat, proximity, a) == ".......Y")
        let tool = TabletTool(type: .pen, serial: 7)
        let at = TabletAxes(x: 0.01, y: 0.01)
        h.seat.notifyTabletProximity(time: h.tick(), device: Self.pen, tool: tool, inProximity: false, axes: at)
        h.seat.notifyTabletProximity(time: h.tick(), device: Self.pen, tool: tool, inProximity: true, axes: at)
        _ = h.flush()
        #expect(row(h.seat, proximity, a) == "........")
    }

    /// The serial of a client that went is forgotten with it.
    @Test func aGoneClientsSerialsAreForgotten() throws {
        let (h, a, _, _) = setUp()
        let key = try #require(make(.keyPress, h))
        h.router.removeClient(a)
        _ = h.flush()
        #expect(row(h.seat, key, a) == "........")
    }

    /// Serials order across the 32-bit wrap: the display's counter goes on past zero.
    @Test func serialsCompareAcrossTheWrap() {
        #expect(Serial(1) < Serial(2))
        #expect(Serial(UInt32.max) < Serial(0))
        #expect(Serial(UInt32.max - 5) < Serial(3))
        #expect(!(Serial(3) < Serial(UInt32.max - 5)))
        #expect(!(Serial(7) < Serial(7)))
    }
}
