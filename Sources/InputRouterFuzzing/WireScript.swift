import InputRouter

/// Writes bytes in `WireFuzz`'s format: the seed corpus and the regression scripts are
/// made with it. Requests are named (interface, request), and their arguments are coded
/// the way the decoder reads them back; objects are chosen newest first among the
/// client's objects of the interface the argument wants.
public struct WireScript {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public enum Argument {
        /// The next free id (for a new_id argument).
        case new
        /// The client's `n`-th newest object of the type the argument wants.
        case object(Int)
        case null
        case uint(UInt32)
        case int(Int32)
        /// The newest serial the client was sent (`n`: the n-th before it).
        case serial(Int)
        /// Layout pixels, in steps of 4 (-256...252).
        case fixed(Int)
        /// One of `WireFuzz.strings`.
        case string(String)
        case fd(Int)
    }

    mutating func op(_ op: WireFuzz.Op, client: Int) { bytes.append(op.rawValue | UInt8(client & 7) << 5) }

    public mutating func connect() { op(.connect, client: 0) }
    public mutating func disconnect(client: Int) { op(.disconnect, client: client) }
    public mutating func bind(client: Int, global: Int, version: UInt8 = 0) {
        op(.bind, client: client)
        bytes += [UInt8(global), version]
    }
    /// Binds what the server announces, whatever its order (indices wrap around).
    public mutating func bindEverything(client: Int, globals: Int = 12) {
        for g in 0..<globals { bind(client: client, global: g) }
    }
    public mutating func mapToplevel(client: Int, size: UInt8) {
        op(.mapToplevel, client: client)
        bytes.append(size)
    }
    public mutating func ackConfigure(client: Int, surface: Int = 0) {
        op(.ackConfigure, client: client)
        bytes.append(UInt8(surface))
    }
    public mutating func frameCallbacks() { op(.frameCallbacks, client: 0) }
    public mutating func raw(client: Int, _ data: [UInt8], withFD: Bool = false) {
        op(.raw, client: client)
        bytes.append(UInt8(data.count))
        bytes += data
        bytes.append(withFD ? 1 : 0)
    }

    /// `interface.request(arguments)` on the client's `object`-th newest `interface`.
    public mutating func request(
        client: Int, _ interface: String, _ name: String, object: Int = 0, _ args: [Argument] = []
    ) {
        guard let i = WireProtocol.order.firstIndex(of: interface), let spec = WireProtocol.spec(named: interface),
            let opcode = spec.requests.firstIndex(where: { $0.name == name })
        else {
            preconditionFailure("no request \(interface).\(name)")
        }
        op(.request, client: client)
        bytes += [UInt8(i), UInt8(object), UInt8(opcode)]
        for a in args { encode(a) }
    }

    /// A request the decoder must treat as a protocol violation: an opcode past the last.
    public mutating func badOpcode(client: Int, _ interface: String) {
        op(.request, client: client)
        bytes += [UInt8(WireProtocol.order.firstIndex(of: interface) ?? 0), 0, 250]
    }

    private mutating func encode(_ a: Argument) {
        switch a {
        case .new, .object(0): bytes.append(0)
        case .object(let n): bytes.append(UInt8(n))
        case .null: bytes.append(248)
        case .uint(let v) where v < 128: bytes.append(UInt8(v))
        case .uint(let v): u32(v)
        case .int(let v): if v >= 0 && v < 128 { bytes.append(UInt8(v)) } else { u32(UInt32(bitPattern: v)) }
        case .serial(let n): bytes.append(128 + UInt8(n))
        case .fixed(let px): bytes.append(UInt8(clamping: px / 4 + 64))
        case .string(let s): bytes.append(UInt8((WireFuzz.strings.firstIndex(of: s) ?? 0) << 3 | 5))
        case .fd(let n): bytes.append(UInt8(n))
        }
    }

    private mutating func u32(_ v: UInt32) {
        bytes.append(224)
        bytes += [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
    }

    // MARK: Input

    static func unit(_ v: Double) -> UInt8 { UInt8(min(max(v, 0), 1) * 239) }
    public mutating func pointer(to x: Double, _ y: Double) {
        op(.motionAbsolute, client: 0)
        bytes += [Self.unit(x), Self.unit(y)]
    }
    public mutating func button(_ pressed: Bool, button: UInt32 = 0x110) {
        op(.button, client: 0)
        bytes += [UInt8(FuzzValues.buttons.firstIndex(of: button) ?? 0), pressed ? 1 : 0]
    }
    public mutating func click() {
        button(true)
        button(false)
    }
    public mutating func key(_ code: UInt32, _ pressed: Bool) {
        op(.key, client: 0)
        bytes += [UInt8(FuzzValues.keys.firstIndex(of: code) ?? 0), pressed ? 1 : 0]
    }
    public mutating func scroll() {
        op(.axis, client: 0)
        bytes += [130, 8, 0]
    }
    public mutating func touch(down slot: Int32, _ x: Double, _ y: Double) {
        op(.touchDown, client: 0)
        bytes += [UInt8(FuzzValues.slots.firstIndex(of: slot) ?? 0), Self.unit(x), Self.unit(y)]
        op(.touchFrame, client: 0)
    }
    public mutating func touch(up slot: Int32) {
        op(.touchUp, client: 0)
        bytes.append(UInt8(FuzzValues.slots.firstIndex(of: slot) ?? 0))
        op(.touchFrame, client: 0)
    }
    public mutating func tablet(proximity: Bool, _ x: Double, _ y: Double) {
        op(.tabletProximity, client: 0)
        bytes += [0, 1, proximity ? 1 : 0, Self.unit(x), Self.unit(y), 1, 120]
    }
    public mutating func tablet(tip: Bool, _ x: Double, _ y: Double) {
        op(.tabletTip, client: 0)
        bytes += [tip ? 1 : 0, Self.unit(x), Self.unit(y), 1, 200]
    }
    public mutating func tabletMotion(_ x: Double, _ y: Double) {
        op(.tabletAxis, client: 0)
        bytes += [Self.unit(x), Self.unit(y), 0]
    }
    public mutating func tabletButton(_ pressed: Bool) {
        op(.tabletButton, client: 0)
        bytes += [0, pressed ? 1 : 0]
    }
    public mutating func padButton(_ pressed: Bool) {
        op(.padButton, client: 0)
        bytes += [1, pressed ? 1 : 0]
    }
    public mutating func removeDevice(_ d: UInt8) {
        op(.device, client: 0)
        bytes += [d, 0]
    }
    public mutating func addDevice(_ d: UInt8, _ caps: DeviceCapabilities) {
        op(.device, client: 0)
        bytes += [d, 1, UInt8(truncatingIfNeeded: caps.rawValue)]
    }
}
