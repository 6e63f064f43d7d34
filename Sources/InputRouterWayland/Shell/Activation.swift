// `xdg_activation_v1` and `xdg_activation_token_v1`: a client hands another (or itself) a
// token, and the holder asks for one of its surfaces to be activated with it.
//
// Focus-stealing prevention: a token moves the keyboard focus (and raises the window,
// through `activate(_:)`, Server+Activation.swift) only when the client that asked for it
// cited, with `set_serial`, a recent user action of its own: a press or release of a button,
// key, finger or tablet tool the seat delivered to it (`Seat.serialEntry(_:client:for:
// .activation)`, SerialRecord.swift). Anything else gets a token all the same
// (the protocol gives the requester no way to tell), and using it changes nothing: no focus,
// no raise. The action must be one the seat named in `set_serial` delivered (a serial of
// another seat does not count), and a granted token moves that seat's keyboard focus.
// Every use is recorded in `activationLog` (`granted` or the reason it was
// refused). Tokens are single-use and expire after `ActivationTokens.lifetimeMS`.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// One use of an activation token, as `WaylandServer.activationLog` records it.
public struct ActivationRecord: Sendable, Equatable {
    /// Why a token use was granted or refused; the raw value is the text the log shows.
    public enum Outcome: String, Sendable, Equatable {
        case granted
        /// The token is not one the server issued, or it was used already.
        case unknownToken = "unknown token"
        case expired
        /// Its requester cited no serial, or one that is not a recent press of its own.
        case noValidSerial = "no valid serial"
        /// The surface has no toplevel to activate.
        case notAToplevel = "not a toplevel"
        /// The session is locked (SessionLock.swift): no window takes the keyboard.
        case sessionLocked = "session locked"
    }
    /// The node asked for (nil for a surface without one).
    public var node: NodeID?
    /// Whether the use moved focus, or the reason it changed nothing.
    public var outcome: Outcome
}

/// The tokens issued and not yet used.
final class ActivationTokens {
    struct Token {
        var string: String
        var validSerial: Bool
        /// The seat whose press it cites: the one whose keyboard it moves.
        var seatIndex: Int
        var issuedMS: UInt64
    }
    /// How long an unused token stays valid.
    var lifetimeMS: UInt64 = 30_000
    /// The clock lifetimes are measured on (milliseconds); tests may replace it.
    var clock: () -> UInt64 = monotonicMilliseconds64
    /// Tokens a client never uses do not pile up: the oldest goes beyond this many.
    static let limit = 64
    private var tokens: [Token] = []

    func issue(validSerial: Bool, seat seatIndex: Int = 0) -> String {
        var random = SystemRandomNumberGenerator()
        let string = (0..<4).map { _ in String(random.next() as UInt32, radix: 16) }.joined(separator: "-")
        if tokens.count == Self.limit { tokens.removeFirst() }
        tokens.append(Token(string: string, validSerial: validSerial, seatIndex: seatIndex, issuedMS: clock()))
        return string
    }

    /// Takes the token out (single use), returning what it allows and on which seat.
    func redeem(_ string: String) -> (outcome: ActivationRecord.Outcome, seatIndex: Int) {
        guard let i = tokens.firstIndex(where: { $0.string == string }) else { return (.unknownToken, 0) }
        let token = tokens.remove(at: i)
        if clock() &- token.issuedMS > lifetimeMS { return (.expired, token.seatIndex) }
        return (token.validSerial ? .granted : .noValidSerial, token.seatIndex)
    }
}

final class ActivationObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgActivationV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // tokens made with it live on
        case .getActivationToken(let id): // get_activation_token(id)
            server.createObject(.xdgActivationTokenV1, client: owner, version: version, id: id) {
                ActivationTokenObject(server: server, owner: owner, resource: $0)
            }
        case .activate(let token, let surface): // activate(token, surface)
            guard let surface = surface.object(as: Surface.self) else { return }
            server.activate(surface: surface, token: token ?? "")
        }
    }
}

final class ActivationTokenObject: WaylandObject {
    private var serial: UInt32?
    private var seatIndex = 0
    private var committed = false

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: XdgActivationTokenV1Request = decode(opcode, args) else { return }
        if case .destroy = request { return destroyResource() }
        if committed {
            return postError(
                XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue,
                "xdg_activation_token_v1@\(wl_resource_get_id(resource)) was committed already")
        }
        switch request {
        case .setSerial(let serial, let seat): // set_serial(serial, seat)
            self.serial = serial
            seatIndex = server.seatIndex(from: seat.object(as: SeatObject.self))
        case .setAppId, .setSurface: break // set_app_id, set_surface: for launch feedback, which there is none of
        case .commit: // commit
            committed = true
            let seat = server.router.seats[seatIndex]
            let valid = serial.map { seat.serialEntry($0, client: owner.id, for: .activation) != nil } ?? false
            let token = server.activationTokens.issue(validSerial: valid, seat: seatIndex)
            xdg_activation_token_v1_send_done(resource, token)
        case .destroy: break
        }
    }
}

extension WaylandServer {
    /// `xdg_activation_v1.activate`: focuses and raises the surface's toplevel if the token
    /// allows it (see the top of this file), and records the outcome either way.
    func activate(surface: Surface, token: String) {
        let (redeemed, seatIndex) = activationTokens.redeem(token)
        var outcome = redeemed
        let top = surface.node.flatMap(toplevelNode(of:))
        if outcome == .granted, top == nil { outcome = .notAToplevel }
        if outcome == .granted, sessionLock.isLocked { outcome = .sessionLocked }
        if outcome == .granted, let top { activate(top, seat: router.seats[seatIndex]) }
        activationLog.append(ActivationRecord(node: surface.node, outcome: outcome))
        if activationLog.count > 64 { activationLog.removeFirst() }
    }
}
