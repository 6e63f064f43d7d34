// Several outputs. Each is an output node at its place in the layout (a root child below
// the window layer: its own area is the background a press there hits) and a `wl_output`
// global telling clients its position, mode, scale and name. Windows are not children of
// an output: they live in one layer spanning the layout, so a window across two outputs
// takes input and is drawn on both. The compositor positions outputs, side by side left to
// right unless told otherwise; clients learn where from `wl_output.geometry` and xdg-output
// (XdgOutput.swift), and hear again when an output moves or is resized.
//
// `wl_surface.enter` and `leave` follow where each surface is: the outputs its frame
// shares a pixel with. They are recomputed when the tree's scene generation moved (a
// map, a move, a resize), not on every event (SceneChanges.swift).
//
// Hot-plug: an output added while running joins the layout at once and its global is
// announced; one removed first moves the windows that would be left on no output onto
// the first remaining one, then leaves every surface, loses its node (the seat moves the
// cursor onto the layout left and re-picks) and its global is removed. libwayland may still
// see a bind racing the removal, so the global itself is destroyed a few seconds later, as
// wlroots does; a `wl_output` bound to it meanwhile gets no events.
import CShim
import CWaylandServer
import InputRouter

/// One output as configured: logical size (layout pixels), scale, and where it goes.
public struct OutputConfiguration: Sendable {
    /// Logical width in layout pixels (an output node is never narrower than 1).
    public var width: Int32
    /// Logical height in layout pixels (an output node is never shorter than 1).
    public var height: Int32
    /// The `wl_output.scale`; the mode sent is the logical size times the scale.
    public var scale: Int32
    /// Its top-left corner in the layout; nil: to the right of every output, at y = 0.
    public var position: Point?
    /// The `wl_output.name`; nil: "OUT-n", n counting every output this server made.
    public var name: String?

    /// An output of the given logical size; by default scale 1, placed right of the others, named "OUT-n".
    public init(width: Int32, height: Int32, scale: Int32 = 1, position: Point? = nil, name: String? = nil) {
        self.width = width
        self.height = height
        self.scale = scale
        self.position = position
        self.name = name
    }
}

/// An output as the server serves it, read through `WaylandServer.outputs`.
public struct OutputInfo: Sendable, Equatable {
    /// Its node in the router's tree (kind `.output`, a child of the root).
    public var node: NodeID
    /// The name sent as `wl_output.name` (configured, or "OUT-n").
    public var name: String
    /// Where it is in the layout, in logical pixels.
    public var frame: Rect
    /// The `wl_output.scale` it is served with.
    public var scale: Int32
}

/// The server's record of one output: its node, global and bound resources.
final class ServedOutput {
    let node: NodeID
    let name: String
    let description: String
    var scale: Int32
    /// Which bit of `Surface.outputMask` is this output's (reused after it is removed).
    let bit: Int
    var global: OpaquePointer?
    /// Its `wl_output` resources, and the `zxdg_output_v1` ones made for them (XdgOutput.swift).
    var resources: [ResourcePointer] = []
    var xdgOutputs: [ResourcePointer] = []
    /// The frame clients were last told of: a scene change that moved or resized the
    /// output's node is announced (`announceOutputFrames`).
    var announcedFrame: Rect
    var removed = false

    init(node: NodeID, name: String, description: String, scale: Int32, bit: Int, frame: Rect) {
        self.node = node
        self.name = name
        self.description = description
        self.scale = scale
        self.bit = bit
        announcedFrame = frame
    }
}

extension WaylandServer {
    /// The outputs, in layout order (the order they were added).
    public var outputs: [OutputInfo] {
        servedOutputs.map(outputInfo)
    }

    func outputInfo(_ o: ServedOutput) -> OutputInfo {
        OutputInfo(node: o.node, name: o.name, frame: outputFrame(o), scale: o.scale)
    }

    /// An output node's frame is its layout rectangle: it is a child of the root.
    func outputFrame(_ o: ServedOutput) -> Rect { router.tree.frame(of: o.node) ?? Rect(0, 0, 0, 0) }

    /// The configured outputs, created with the globals (so the registry lists the first
    /// `wl_output` where a one-output server always had it).
    func createConfiguredOutputs() {
        let configured =
            configuration.outputs.isEmpty
            ? [OutputConfiguration(width: configuration.outputWidth, height: configuration.outputHeight)]
            : configuration.outputs
        for c in configured { addOutput(c) }
    }

    /// Adds an output to the layout and announces its `wl_output` global. At most 64
    /// outputs at a time (the bits of a surface's output set); beyond that, nil.
    @discardableResult
    public func addOutput(_ c: OutputConfiguration) -> NodeID? {
        let used = servedOutputs.map(\.bit)
        guard let bit = (0..<64).first(where: { !used.contains($0) }) else { return nil }
        outputCount += 1
        let layout = OutputLayout(servedOutputs.map(outputFrame))
        let at =
            c.position.map {
                (x: Int32(clamping: Int64($0.x.rounded(.down))), y: Int32(clamping: Int64($0.y.rounded(.down))))
            }
            ?? layout.nextPosition
        let tree = router.tree
        let frame = Rect(at.x, at.y, max(c.width, 1), max(c.height, 1))
        let node = tree.createNode(.output, name: "output", frame: frame)
        _ = tree.place(node, below: outputNode) // backgrounds under every window
        let output = ServedOutput(
            node: node, name: c.name ?? "OUT-\(outputCount)", description: "InputRouter output \(outputCount)",
            scale: max(c.scale, 1), bit: bit, frame: frame)
        servedOutputs.append(output)
        let binding = GlobalBinding(server: self) { [unowned self] client, version, id in
            self.bindOutput(output, client: client, version: version, id: id)
        }
        globalBindings.append(binding)
        offeredGlobals.append(GlobalDescription(interface: "wl_output", version: GlobalVersion.output))
        output.global = wl_global_create(
            display, .wlOutput, GlobalVersion.output, CallbackContext.unretained(binding), outputBound)
        sessionLockFollowOutputs() // the lock node spans the new output too (SessionLock.swift)
        followSceneChanges()
        sendDeliveries()
        return node
    }

    /// Removes an output: windows only it showed move onto the first output left, surfaces
    /// get `leave`, the pointer moves onto the layout left, clients see `global_remove`.
    public func removeOutput(_ node: NodeID) {
        guard let i = servedOutputs.firstIndex(where: { $0.node == node }) else { return }
        let output = servedOutputs.remove(at: i)
        let removedFrame = outputFrame(output)
        // Its panels and wallpapers will no longer be shown (LayerShell.swift).
        for l in layerSurfaces where l.output === output { l.close(arrange: false) }
        usableAreas[ObjectIdentifier(output)] = nil
        layerKeyboardChanged()
        let left = OutputLayout(servedOutputs.map(outputFrame))
        let tree = router.tree
        tree.batchUpdates {
            for window in tree.children(of: outputNode) {
                guard let f = tree.frame(of: window), let to = left.relocation(of: f, from: removedFrame) else {
                    continue
                }
                tree.move(window, to: to)
            }
            tree.destroy(output.node)
        }
        output.removed = true
        output.xdgOutputs.removeAll() // inert from now on: nothing more is sent to them
        sessionLockFollowOutputs()
        for case let s? in surfacesByNode where s.outputMask & (1 << UInt64(output.bit)) != 0 {
            s.outputMask &= ~(1 << UInt64(output.bit))
            guard s.owner.alive else { continue }
            for r in output.resources where wl_resource_get_client(r) == s.owner.client {
                wl_surface_send_leave(s.resource, r)
            }
        }
        if let k = offeredGlobals.firstIndex(where: { $0.interface == "wl_output" }) { offeredGlobals.remove(at: k) }
        if let global = output.global {
            wl_global_remove(global)
            output.global = nil
            // Kept until then: the binding the global's data points at lives in globalBindings.
            retiredOutputGlobals.append(global)
            schedule(afterMS: 5000) { [unowned self] in
                retiredOutputGlobals.removeAll { $0 == global }
                wl_global_destroy(global)
                return nil
            }
        }
        followSceneChanges()
        sendDeliveries()
    }

    /// Gives an output a new logical size; its clients get the new mode and logical size
    /// (following the scene change: `announceOutputFrames`).
    public func resizeOutput(_ node: NodeID, width: Int32, height: Int32) {
        guard width > 0, height > 0, servedOutputs.contains(where: { $0.node == node }) else { return }
        router.tree.resize(node, width: width, height: height)
        sessionLockFollowOutputs()
        followSceneChanges()
        sendDeliveries()
    }

    /// Tells clients of each output whose frame changed since they were last told (a
    /// resize, or its node moved in the tree): each xdg output what changed (and, before
    /// version 3, its own `done`), then each `wl_output` its geometry, mode and scale and
    /// `done`, which also ends the version 3 xdg outputs' batch. Part of following the
    /// scene (SceneChanges.swift), so a move of an output node by the embedder counts too.
    func announceOutputFrames() {
        for o in servedOutputs {
            let frame = outputFrame(o)
            let old = o.announcedFrame
            guard frame != old else { continue }
            o.announcedFrame = frame
            for r in o.xdgOutputs { (WaylandObject.from(r) as? XdgOutputObject)?.sendChange(from: old, to: frame) }
            for r in o.resources { (WaylandObject.from(r) as? OutputObject)?.sendState(onBind: false) }
            // Its panels and wallpapers follow it (LayerShell.swift).
            arrangeLayers(on: o)
        }
    }

    private func bindOutput(_ output: ServedOutput, client: ClientState, version: Int32, id: UInt32) {
        guard
            let object = createObject(
                .wlOutput, client: client, version: version, id: id,
                {
                    OutputObject(server: self, owner: client, resource: $0, output: output)
                })
        else { return }
        guard !output.removed else { return } // bound while its removal raced: inert
        output.resources.append(object.resource)
        object.sendState(onBind: true)
        // The client's surfaces already on this output are told so on the new resource.
        for case let s? in surfacesByNode where s.owner === client && s.outputMask & (1 << UInt64(output.bit)) != 0 {
            wl_surface_send_enter(s.resource, object.resource)
        }
    }

    // MARK: wl_surface.enter / leave

    /// The outputs `surface` is on: those its frame shares a pixel with while it is
    /// visible (mapped with every ancestor).
    func outputMask(of surface: Surface) -> UInt64 {
        let tree = router.tree
        guard let node = surface.node, tree.isVisible(node), let f = tree.frame(of: node),
            let p = tree.layoutPosition(of: node)
        else { return 0 }
        let rect = Rect(
            Int32(clamping: Int64(p.x.rounded(.down))), Int32(clamping: Int64(p.y.rounded(.down))), f.width, f.height)
        var mask: UInt64 = 0
        for o in servedOutputs {
            if let of = tree.frame(of: o.node), OutputLayout.overlap(of, rect) { mask |= 1 << UInt64(o.bit) }
        }
        return mask
    }

    /// Sends `enter` for the outputs `surface` came onto and `leave` for those it left, on
    /// each `wl_output` its client bound.
    func updateOutputs(of surface: Surface) {
        guard surface.owner.alive else { return }
        let mask = outputMask(of: surface)
        let changed = mask ^ surface.outputMask
        guard changed != 0 else { return }
        surface.outputMask = mask
        for o in servedOutputs where changed & (1 << UInt64(o.bit)) != 0 {
            let entered = mask & (1 << UInt64(o.bit)) != 0
            for r in o.resources where wl_resource_get_client(r) == surface.owner.client {
                if entered {
                    wl_surface_send_enter(surface.resource, r)
                } else {
                    wl_surface_send_leave(surface.resource, r)
                }
            }
        }
    }

    /// Every surface's outputs, after the scene changed (`followSceneChanges`,
    /// SceneChanges.swift, decides when).
    func updateSurfaceOutputs() {
        for case let s? in surfacesByNode { updateOutputs(of: s) }
    }
}

private let outputBound: wl_global_bind_func_t = { client, data, version, id in
    let binding = CallbackContext.borrowed(data!, as: GlobalBinding.self)
    guard let state = binding.server.clientState(client) else { return }
    binding.bind(state, Int32(version), id)
    binding.server.sendDeliveries()
}

/// `wl_output`: one output's place in the layout, its mode and scale, its name.
final class OutputObject: WaylandObject {
    let output: ServedOutput

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, output: ServedOutput) {
        self.output = output
        super.init(server: server, owner: owner, resource: resource)
    }

    /// Geometry, mode and scale, then `done`. `name` and `description` only on bind: the
    /// protocol sends the name once per `wl_output` object, the description after binding and
    /// when it changes, which it never does here.
    func sendState(onBind: Bool) {
        guard !output.removed, let f = server.router.tree.frame(of: output.node) else { return }
        wl_output_send_geometry(
            resource, f.x, f.y, 0, 0, Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue), "InputRouter", "output",
            Int32(WL_OUTPUT_TRANSFORM_NORMAL.rawValue))
        wl_output_send_mode(
            resource, WL_OUTPUT_MODE_CURRENT.rawValue | WL_OUTPUT_MODE_PREFERRED.rawValue,
            f.width &* output.scale, f.height &* output.scale, 60000)
        if version >= 2 { wl_output_send_scale(resource, output.scale) }
        if onBind, version >= 4 {
            wl_output_send_name(resource, output.name)
            wl_output_send_description(resource, output.description)
        }
        if version >= 2 { wl_output_send_done(resource) }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WlOutputRequest = decode(opcode, args) else { return }
        switch request {
        case .release: destroyResource() // release (v3)
        }
    }

    override func resourceDestroyed() { output.resources.removeAll { $0 == resource } }
}
