// Routing through the whole core: a desktop scene with 30 clients that bound pointer,
// keyboard and touch, a real xkb keymap (the Keyboard module) and a null delivery sink.
import Foundation
import InputRouter
import InputRouterKeyboard

enum EventKind: String, CaseIterable {
    case pointer = "pointer motion (re-pick each event)"
    case touch = "touch frame, 10 fingers"
    case key = "key press or release (xkb us)"
    case tablet = "tablet tool stroke (proximity, tip, axes)"
    case pad = "tablet pad button, ring and strip to the keyboard focus (mode switches)"
    case confined = "relative motion, confined to a window (relative pointer)"
    case locked = "relative motion, pointer locked (relative pointer)"
    case gesture = "touchpad swipe (begin, 30 updates, end)"
    case button = "button press or release, no focus change"
    case click = "click that raises and focuses a window (30 siblings: child grid restacked)"
    case clickFew = "click that raises and focuses a window (8 siblings: no grid)"
    case scroll = "wheel scroll with value120 (whole and half clicks)"
    case focus = "keyboard focus change (leave, enter with keys, modifiers)"
    case popup = "popup opening with a grab, motion, click outside, closing"
}

final class RoutingBench {
    let router = Router()
    let seat: Seat
    var sink = NullSink()
    var time: UInt64 = 0
    let deltas: [(Double, Double)]
    let touchPoints: [Point]
    /// The window that locks or confines the pointer (to its top part, above its subsurfaces), and which of the two it has.
    let constrainedTop: NodeID
    var constraint: EventKind?
    /// The pad is plugged in on its first event (so other kinds route without it).
    var padReady = false
    /// Letters and space, typed into the focused toplevel.
    /// The toplevels, bottom first (as created; clicks restack them).
    var tops: [NodeID] = []
    let keys: [UInt32] = [
        30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50, 49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44, 57,
    ]

    /// `windows` toplevels: 30 makes the output's child list wide enough for a grid.
    init(windows: Int = 30) throws {
        seat = router.addSeat()
        seat.keyTranslator = try KeyboardConfiguration(keymap: .names(RuleNames(layout: "us"))).makeState(
            environment: [:])
        let tree = router.tree
        let output = tree.createNode(.output, name: "out", frame: Rect(0, 0, 1920, 1080))
        tree.createNode(.compositor, name: "background", parent: output, frame: Rect(0, 0, 1920, 1080))
        var firstTop: NodeID?
        var lastTop: NodeID?
        for t in 0..<windows {
            let c = router.addClient(name: "c\(t)")
            seat.setBound([.pointer, .keyboard, .touch, .tablet], for: c, true)
            let x = Int32((t * 61) % 1400)
            let y = Int32((t * 37) % 700)
            let top = tree.createNode(.toplevel, client: c, parent: output, frame: Rect(x, y, 500, 350))
            var region = Region(Rect(0, 0, 500, 350))
            region.subtract(Rect(200, 100, 50, 50))
            tree.setInputRegion(top, region)
            for s in 0..<4 {
                tree.createNode(
                    .subsurface, client: c, parent: top, frame: Rect(Int32(s * 100), 300, 90, 40),
                    layer: s == 0 ? .below : .above)
            }
            tops.append(top)
            firstTop = firstTop ?? top
            lastTop = top
        }
        tree.createNode(.compositor, name: "panel", parent: output, frame: Rect(0, 0, 1920, 30))
        constrainedTop = lastTop! // the topmost window: nothing covers it
        _ = seat.setKeyboardFocus(firstTop)
        var rng = Lcg(state: 7)
        deltas = (0..<4096).map { _ in (rng.next() * 60 - 30, rng.next() * 60 - 30) }
        touchPoints = (0..<4096).map { _ in Point(rng.next() * 1900 + 10, rng.next() * 1060 + 10) }
        seat.notifyPointerWarp(time: 0, to: Point(960, 540))
        router.flush(into: &sink)
    }

    /// Routes event `i` of `kind` and flushes its deliveries.
    @inline(never) func route(_ kind: EventKind, _ i: Int) {
        time &+= 1000
        switch kind {
        case .pointer:
            // Keep the cursor roaming over the whole output: motions cross surfaces.
            let d = deltas[i & 4095]
            let c = seat.cursor
            let dx = c.x + d.0 < 0 || c.x + d.0 > 1919 ? -d.0 : d.0
            let dy = c.y + d.1 < 0 || c.y + d.1 > 1079 ? -d.1 : d.1
            seat.notifyPointerMotion(time: time, dx: dx, dy: dy)
        case .touch:
            // Every 32nd frame the ten fingers lift and land elsewhere (hit-tests); the
            // others move all ten.
            let phase = i & 31
            for f in 0..<10 {
                let p = touchPoints[(i &* 10 &+ f) & 4095]
                if phase == 0 {
                    seat.notifyTouchDown(time: time, slot: Int32(f), at: p)
                } else if phase == 31 {
                    seat.notifyTouchUp(time: time, slot: Int32(f))
                } else {
                    seat.notifyTouchMotion(time: time, slot: Int32(f), at: p)
                }
            }
            seat.notifyTouchFrame()
        case .key:
            seat.notifyKey(time: time, key: keys[(i >> 1) % keys.count], state: i & 1 == 0 ? .pressed : .released)
        case .tablet:
            // 64-event strokes: hover in, tip down, drag across surfaces, tip up, out.
            let p = touchPoints[i & 4095]
            let phase = i & 63
            let axes = TabletAxes(x: p.x / 1920, y: p.y / 1080, pressure: 0.5, tiltX: 10, tiltY: -5)
            let pen = DeviceID(9)
            switch phase {
            case 0:
                seat.notifyTabletProximity(
                    time: time, device: pen, tool: TabletTool(type: .pen), inProximity: true, axes: axes)
            case 16, 48: seat.notifyTabletTip(time: time, device: pen, down: phase == 16, axes: axes)
            case 63:
                seat.notifyTabletProximity(
                    time: time, device: pen, tool: TabletTool(type: .pen), inProximity: false, axes: axes)
            default: seat.notifyTabletAxis(time: time, device: pen, axes: axes)
            }
        case .pad:
            // Presses and releases of three buttons (the mode button every 16th), ring turns
            // and lifts, strip slides, to the focused window.
            let pad = DeviceID(10)
            if !padReady { addPad(pad) }
            let mode = UInt32((i >> 4) % 3)
            switch i & 7 {
            case 0, 1:
                seat.notifyPadButton(
                    time: time, device: pad, button: i & 15 < 8 ? 1 : 0, state: i & 1 == 0 ? .pressed : .released,
                    mode: mode)
            case 2, 3, 4:
                seat.notifyPadRing(
                    time: time, device: pad, ring: 0, position: Double(i & 255), source: .finger, mode: mode)
            case 5: seat.notifyPadRing(time: time, device: pad, ring: 0, position: -1, source: .finger, mode: mode)
            default:
                seat.notifyPadStrip(
                    time: time, device: pad, strip: 0, position: Double(i & 7) / 8, source: .finger, mode: mode)
            }
        case .confined, .locked:
            constrain(kind)
            // Back and forth inside the window and against its edges.
            let d = deltas[i & 4095]
            seat.notifyPointerMotion(time: time, dx: d.0 * 4, dy: d.1 * 4, unacceleratedDX: d.0, unacceleratedDY: d.1)
        case .gesture:
            // 32-event swipes to the surface under the roaming cursor.
            let phase = i & 31
            let d = deltas[i & 4095]
            let g = GestureEvent(
                kind: .swipe, phase: phase == 0 ? .begin : phase == 31 ? .end : .update, fingers: 3,
                dx: phase == 0 || phase == 31 ? 0 : d.0, dy: phase == 0 || phase == 31 ? 0 : d.1)
            seat.notifyGesture(time: time, g)
        case .button:
            seat.notifyPointerButton(time: time, button: 0x110, state: i & 1 == 0 ? .pressed : .released)
        case .click, .clickFew:
            // Press somewhere else each time (the window there comes up), then release.
            if i & 1 == 0 {
                seat.notifyPointerWarp(time: time, to: touchPoints[(i >> 1) & 4095])
                seat.notifyPointerButton(time: time, button: 0x110, state: .pressed)
                raiseAndFocusUnderCursor()
            } else {
                seat.notifyPointerButton(time: time, button: 0x110, state: .released)
            }
        case .scroll:
            let v120: Int32 = i & 3 == 3 ? 60 : i & 1 == 0 ? 120 : -120
            seat.notifyPointerAxis(
                time: time, source: .wheel, vertical: AxisValue(value: Double(v120) / 8, value120: v120),
                horizontal: i & 7 == 7 ? AxisValue(value: 15, value120: 120) : nil)
        case .focus:
            // A key held across the change: the enter carries it.
            if i & 15 == 0 { seat.notifyKey(time: time, key: 42, state: .pressed) }
            if i & 15 == 15 { seat.notifyKey(time: time, key: 42, state: .released) }
            _ = seat.setKeyboardFocus(tops[(i &* 7) % tops.count])
        case .popup:
            popupStep(i & 3)
        }
        router.flush(into: &sink)
    }

    /// What a focus-on-click compositor does on a press: raise the window under the cursor
    /// and give it the keyboard.
    func raiseAndFocusUnderCursor() {
        guard var n = seat.pointerFocusNode else { return }
        while router.tree.kind(of: n) != .toplevel, let p = router.tree.parent(of: n) { n = p }
        guard router.tree.kind(of: n) == .toplevel else { return }
        router.tree.raiseToTop(n)
        _ = seat.setKeyboardFocus(n)
    }

    var popupNode: NodeID?

    /// 0: the focused window opens a popup with a grab; 1: motion inside it; 2: a press
    /// outside dismisses it; 3: the release, and the client destroys the popup.
    func popupStep(_ phase: Int) {
        let tree = router.tree
        let parent = tops[0]
        guard let origin = tree.layoutPosition(of: parent) else { return }
        switch phase {
        case 0:
            tree.raiseToTop(parent)
            _ = seat.setKeyboardFocus(parent)
            seat.notifyPointerWarp(time: time, to: Point(origin.x + 50, origin.y + 50))
            seat.notifyPointerButton(time: time, button: 0x110, state: .pressed)
            seat.notifyPointerButton(time: time, button: 0x110, state: .released)
            let p = tree.createNode(
                .popup, client: tree.client(of: parent)!, parent: parent, frame: Rect(40, 40, 120, 200))
            tree.setNextResponder(p, parent)
            _ = seat.beginPopupGrab(p)
            popupNode = p
        case 1:
            seat.notifyPointerMotion(time: time, dx: 20, dy: 20)
        case 2:
            seat.notifyPointerWarp(time: time, to: Point(origin.x + 450, origin.y + 320))
            seat.notifyPointerButton(time: time, button: 0x110, state: .pressed)
        default:
            seat.notifyPointerButton(time: time, button: 0x110, state: .released)
            if let p = popupNode { tree.destroy(p) }
            popupNode = nil
        }
    }

    /// Puts the cursor on the topmost window and gives it the constraint (once per kind: a
    /// constraint changing is a scene change, not a routed event).
    func addPad(_ pad: DeviceID) {
        seat.notifyDeviceAdded(DeviceID(9), capabilities: .tabletTool)
        seat.notifyDeviceAdded(pad, capabilities: .tabletPad)
        seat.notifyPadAdded(
            pad,
            layout: TabletPadLayout(
                buttons: 3, rings: 1, strips: 1,
                groups: [TabletPadGroup(buttons: [0, 1, 2], rings: [0], strips: [0], modes: 3, toggles: [0])],
                tablet: DeviceID(9)),
            time: time)
        router.flush(into: &sink)
        // A pad that did not enter would measure dropped events under this name.
        precondition(seat.padFocus(device: pad) != nil, "the pad did not enter the focused window")
        padReady = true
    }

    func constrain(_ kind: EventKind) {
        guard constraint != kind else { return }
        seat.removePointerConstraint(on: constrainedTop)
        guard let client = router.tree.client(of: constrainedTop),
            let origin = router.tree.layoutPosition(of: constrainedTop)
        else { return }
        seat.setBound(.relativePointer, for: client, true)
        seat.notifyPointerWarp(time: time, to: Point(origin.x + 100, origin.y + 50))
        seat.setKeyboardFocus(constrainedTop) // constraints hold only in the selected window
        seat.addPointerConstraint(
            kind == .locked ? .lock : .confine, on: constrainedTop,
            region: Region(Rect(0, 0, 500, 250)), lifetime: .persistent)
        constraint = kind
        router.flush(into: &sink)
        // A constraint that did not activate would measure plain motion under this name.
        guard seat.activePointerConstraint != nil else {
            fatalError("core-bench: the \(kind) constraint is not active")
        }
    }
}

struct RoutingResult {
    var kind: EventKind
    var perSecond: Double
    var median: UInt64, p99: UInt64
    var allocationsPerEvent: Double
}

/// Throughput without clocks in the loop, then per-event latency with them, then
/// allocations counted over a separate steady-state batch.
func measureRouting(_ bench: RoutingBench, _ kind: EventKind, events: Int) -> RoutingResult {
    let mean = measure(count: events) { i in bench.route(kind, i) }
    var samples = [UInt64](repeating: 0, count: events)
    for i in 0..<events {
        let t0 = now()
        bench.route(kind, i)
        samples[i] = now() - t0
    }
    samples.sort()
    let allocations = countAllocations(bench, kind, events: events)
    return RoutingResult(
        kind: kind, perSecond: 1e9 / mean, median: quantile(samples, 0.5), p99: quantile(samples, 0.99),
        allocationsPerEvent: Double(allocations) / Double(events))
}
