// A one-line text form of an event, used for golden tests and readable traces. Numbers
// have fixed decimals so the text is stable across platforms.

import InputRouter

/// A stable one-line text for any event, for golden tests, traces and tool output.
public enum EventText {
    /// Time in seconds, device and `describe(kind)`. Builds a new String each call: keep it off
    /// the routing path.
    public static func describe(_ event: InputEvent) -> String {
        "\(seconds(event.time)) \(event.device) \(describe(event.kind))"
    }

    /// The event's kind and fields, with fixed decimals so the text is the same on every platform.
    public static func describe(_ kind: InputEvent.Kind) -> String {
        switch kind {
        case .deviceAdded(let capabilities): return "added \(names(capabilities))"
        case .deviceRemoved: return "removed"
        case .pointerMotion(let dx, let dy, let ux, let uy):
            return "motion \(fixed(dx, 2)) \(fixed(dy, 2)) unaccel \(fixed(ux, 2)) \(fixed(uy, 2))"
        case .pointerMotionAbsolute(let x, let y): return "motion-absolute \(fixed(x, 4)) \(fixed(y, 4))"
        case .pointerButton(let button, let state): return "button \(button) \(name(state == .pressed))"
        case .pointerAxis(let source, let vertical, let horizontal):
            return "axis \(name(source)) v \(axis(vertical)) h \(axis(horizontal))"
        case .keyboardKey(let key, let state): return "key \(key) \(name(state == .pressed))"
        case .touchDown(let slot, let x, let y): return "touch-down \(slot) \(fixed(x, 4)) \(fixed(y, 4))"
        case .touchMotion(let slot, let x, let y): return "touch-motion \(slot) \(fixed(x, 4)) \(fixed(y, 4))"
        case .touchUp(let slot): return "touch-up \(slot)"
        case .touchCancel(let slot): return "touch-cancel \(slot)"
        case .touchFrame: return "touch-frame"
        case .gesture(let g):
            return
                "gesture \(name(g.kind)) \(name(g.phase)) \(g.fingers) \(fixed(g.dx, 2)) \(fixed(g.dy, 2)) scale \(fixed(g.scale, 2))"
                + " rotation \(fixed(g.rotation, 2))" + (g.cancelled ? " cancelled" : "")
        case .switchToggle(let kind, let on): return "switch \(name(kind)) \(on ? "on" : "off")"
        case .tabletToolProximity(let tool, let inProximity, let axes):
            return "tablet-proximity \(inProximity ? "in" : "out") \(name(tool.type)) \(tool.serial) \(describe(axes))"
        case .tabletToolTip(let down, let axes): return "tablet-tip \(down ? "down" : "up") \(describe(axes))"
        case .tabletToolAxis(let axes): return "tablet-axis \(describe(axes))"
        case .tabletToolButton(let button, let state): return "tablet-button \(button) \(name(state == .pressed))"
        case .tabletPadAdded(let layout): return "pad-added \(PadLayoutReading.yaml(layout))"
        case .tabletPadButton(let button, let state, let mode):
            return "pad-button \(button) \(name(state == .pressed)) mode \(mode)"
        case .tabletPadRing(let n, let position, let source, let mode):
            return "pad-ring \(n) \(fixed(position, 2)) \(name(source)) mode \(mode)"
        case .tabletPadStrip(let n, let position, let source, let mode):
            return "pad-strip \(n) \(fixed(position, 2)) \(name(source)) mode \(mode)"
        }
    }

    static func describe(_ a: TabletAxes) -> String {
        var text = "\(fixed(a.x, 4)) \(fixed(a.y, 4))"
        for (label, value) in [
            ("pressure", a.pressure), ("distance", a.distance), ("tilt-x", a.tiltX), ("tilt-y", a.tiltY),
            ("rotation", a.rotation), ("slider", a.slider), ("wheel", a.wheel),
        ] {
            if let value { text += " \(label) \(fixed(value, 2))" }
        }
        return text
    }

    /// libinput record's names (`tool-type:`); pencil and totem are spelled out here even
    /// though libinput 1.22 record prints them as "brush" and "unknown".
    static func name(_ type: TabletToolType) -> String {
        switch type {
        case .pen: "pen"
        case .eraser: "eraser"
        case .brush: "brush"
        case .pencil: "pencil"
        case .airbrush: "airbrush"
        case .mouse: "mouse"
        case .lens: "lens"
        case .totem: "totem"
        }
    }

    static func name(_ source: PadSource) -> String { source == .finger ? "finger" : "unknown" }

    // Names spelled out here rather than taken from the enums' descriptions, which other
    // modules may define: the golden texts and the written files must not change with them.
    static func name(_ pressed: Bool) -> String { pressed ? "pressed" : "released" }

    static func name(_ source: AxisSource) -> String {
        switch source {
        case .wheel: "wheel"
        case .finger: "finger"
        case .continuous: "continuous"
        case .wheelTilt: "wheel-tilt"
        }
    }

    static func name(_ kind: SwitchKind) -> String {
        switch kind {
        case .lid: "lid"
        case .tabletMode: "tabletMode"
        case .keypadSlide: "keypadSlide"
        }
    }

    static func name(_ kind: GestureKind) -> String {
        switch kind {
        case .swipe: "swipe"
        case .pinch: "pinch"
        case .hold: "hold"
        }
    }

    static func name(_ phase: GesturePhase) -> String {
        switch phase {
        case .begin: "begin"
        case .update: "update"
        case .end: "end"
        }
    }

    static func names(_ capabilities: DeviceCapabilities) -> String {
        let all: [(DeviceCapabilities, String)] = [
            (.keyboard, "keyboard"), (.pointer, "pointer"), (.touch, "touch"), (.tabletTool, "tablet-tool"),
            (.tabletPad, "tablet-pad"), (.gesture, "gesture"), (.switch, "switch"),
        ]
        return "[" + all.filter { capabilities.contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }

    static func axis(_ value: AxisValue?) -> String {
        guard let value else { return "-" }
        return "\(fixed(value.value, 2))/\(value.value120)"
    }

    /// `s.uuuuuu`, as libinput prints times.
    static func seconds(_ micros: UInt64) -> String {
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `value` rounded to `decimals` places, without Foundation's formatting.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        var divisor: Int64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        let whole = scaled / divisor
        let fraction = String(scaled % divisor)
        guard decimals > 0 else { return "\(sign)\(whole)" }
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
