// `zwp_pointer_constraints_v1` (pointer-constraints): a client locks the pointer on one of
// its surfaces (the cursor stays still; motion arrives only through relative-pointer) or
// confines it to a region of it. The core decides when a constraint is active
// (Seat+Constraints.swift): while the surface has the pointer focus and the cursor is in
// the region (intersected with the input region), until leave; the escape binding
// (`Seat.escapeBinding`, Super+Escape by default, shared with shortcuts inhibition) always
// ends it.
// Regions and the lock's cursor hint are double-buffered: they apply at the surface's
// commit. A constraint belongs to the seat of the `wl_pointer` it names: a surface may have
// one per seat, and a lock on one seat's pointer leaves the other seats' pointers free.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

final class PointerConstraintsObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZwpPointerConstraintsV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // constraints made with the manager live on
        case .lockPointer(let id, let surface, let pointer, let region, let lifetime),
            .confinePointer(let id, let surface, let pointer, let region, let lifetime):
            guard let surface = surface.object(as: Surface.self) else { return }
            let seatIndex = pointer.object(as: PointerObject.self)?.seatIndex ?? 0
            let kind: PointerConstraintKind = if case .lockPointer = request { .lock } else { .confine }
            if surface.pointerConstraint(seat: seatIndex) != nil {
                return postError(
                    ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED.rawValue,
                    "wl_surface@\(wl_resource_get_id(surface.resource)) already has a pointer constraint on this seat")
            }
            guard let lifetime = ConstraintLifetime(rawValue: lifetime) else {
                // The protocol names no error for this; wl_display's is the generic one.
                return postError(WL_DISPLAY_ERROR_INVALID_METHOD.rawValue, "\(lifetime) is not a constraint lifetime")
            }
            let region = region.object(as: RegionObject.self)?.region
            let make: (ResourcePointer) -> ConstraintObject = { [server, owner] in
                kind == .lock
                    ? LockedPointerObject(
                        server: server, owner: owner, resource: $0, surface: surface, seatIndex: seatIndex,
                        kind: kind, lifetime: lifetime, region: region)
                    : ConfinedPointerObject(
                        server: server, owner: owner, resource: $0, surface: surface, seatIndex: seatIndex,
                        kind: kind, lifetime: lifetime, region: region)
            }
            let interface: UnsafePointer<wl_interface> = kind == .lock ? .zwpLockedPointerV1 : .zwpConfinedPointerV1
            guard let constraint = server.createObject(interface, client: owner, version: version, id: id, make)
            else { return }
            surface.pointerConstraints.append(constraint)
            constraint.register()
        }
    }
}

/// What a locked and a confined pointer share: the surface, the region, registration with
/// the core once the surface has a place in the scene.
class ConstraintObject: WaylandObject {
    weak var surface: Surface?
    /// The seat of the `wl_pointer` it constrains, by index.
    let seatIndex: Int
    private var seat: Seat { server.router.seats[seatIndex] }
    let kind: PointerConstraintKind
    let lifetime: ConstraintLifetime
    var alive = true
    /// The node the core knows this constraint on; nil until the surface has one.
    var node: NodeID?
    let initialRegion: Region?
    /// `set_region` since the last commit: `.some(nil)` is the infinite region.
    var pendingRegion: Region??
    var pendingHint: Point?

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, surface: Surface, seatIndex: Int,
        kind: PointerConstraintKind, lifetime: ConstraintLifetime, region: Region?
    ) {
        self.surface = surface
        self.seatIndex = seatIndex
        self.kind = kind
        self.lifetime = lifetime
        self.initialRegion = region
        super.init(server: server, owner: owner, resource: resource)
    }

    /// Registers with the core when the surface has a node (else at a later commit).
    func register() {
        guard alive, node == nil, let n = surface?.node else { return }
        node = n
        seat.addPointerConstraint(kind, on: n, region: initialRegion, lifetime: lifetime)
    }

    /// The surface committed: the pending region and hint take effect.
    func surfaceCommitted() {
        guard alive else { return }
        register()
        guard let node else { return }
        if let region = pendingRegion { seat.setPointerConstraintRegion(on: node, region) }
        if let hint = pendingHint { seat.setPointerConstraintHint(on: node, hint) }
        pendingRegion = nil
        pendingHint = nil
    }

    func setRegion(_ region: ResourcePointer?) {
        pendingRegion = .some(region.object(as: RegionObject.self)?.region)
    }

    /// `locked`/`confined` or `unlocked`/`unconfined`.
    func send(active: Bool) {}

    override func resourceDestroyed() {
        alive = false
        surface?.pointerConstraints.removeAll { $0 === self }
        if let node, !server.shuttingDown { seat.removePointerConstraint(on: node) }
    }
}

extension Surface {
    /// Its live lock or confinement of seat `index`'s pointer, if any.
    func pointerConstraint(seat index: Int) -> ConstraintObject? {
        pointerConstraints.first { $0.alive && $0.seatIndex == index }
    }
}

extension WaylandServer {
    /// A constraint delivery to the surface's lock or confinement object of seat `index`.
    func sendConstraintChange(_ node: NodeID, seat index: Int, active: Bool) {
        guard let s = surface(for: node), s.owner.alive, let c = s.pointerConstraint(seat: index), c.node == node else {
            return
        }
        c.send(active: active)
    }
}
