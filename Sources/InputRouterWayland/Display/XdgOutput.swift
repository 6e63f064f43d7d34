// xdg-output (`zxdg_output_manager_v1`, unstable v1, version 3): each output's place and
// size in the layout, in logical pixels, with its name and description. Panels, docks and
// lock screens place themselves per output with it (waybar will not start without it).
//
// An `zxdg_output_v1` is made for one `wl_output` and says at once where that output is
// (logical_position, logical_size), then its name and description (version 2 on, once per
// object: neither ever changes here). What ends the batch depends on the version: since
// version 3 the object's own `done` is deprecated and the `wl_output.done` of the
// `wl_output` it was made for is sent instead; before, its own `done`.
//
// When an output moves or changes size (`resizeOutput`, or its node moved in the tree),
// clients hear of it as part of following the scene (`announceOutputFrames`, Outputs.swift):
// each xdg output gets what changed, a version 1 or 2 one its own `done`, then every
// `wl_output` its new state ending in `wl_output.done`, which closes the version 3 ones'.
//
// An output removed leaves its xdg outputs inert (nothing more is sent); one made for a
// `wl_output` whose output is gone (bound while the removal raced, or kept after it) is
// inert from the start, as the object must still exist for the client.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// `zxdg_output_manager_v1`: makes an xdg output for a `wl_output`.
final class XdgOutputManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZxdgOutputManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy: the xdg outputs made through it stay
        case .getXdgOutput(let id, let output): getXdgOutput(id: id, for: output)
        }
    }

    private func getXdgOutput(id: UInt32, for wlOutput: ResourcePointer?) {
        // libwayland checked the argument is a wl_output; all of them are OutputObjects.
        let served = (WaylandObject.from(wlOutput) as? OutputObject)?.output
        let output = served.flatMap { $0.removed ? nil : $0 }
        guard
            let object = server.createObject(
                .zxdgOutputV1, client: owner, version: version, id: id,
                {
                    XdgOutputObject(server: server, owner: owner, resource: $0, output: output)
                }), let output, let wlOutput
        else { return }
        output.xdgOutputs.append(object.resource)
        let frame = server.outputFrame(output)
        zxdg_output_v1_send_logical_position(object.resource, frame.x, frame.y)
        zxdg_output_v1_send_logical_size(object.resource, frame.width, frame.height)
        if object.version >= 2 {
            zxdg_output_v1_send_name(object.resource, output.name)
            zxdg_output_v1_send_description(object.resource, output.description)
        }
        if object.version >= 3 {
            // wl_output.done exists since wl_output version 2; a version 1 one has no end marker.
            if wl_resource_get_version(wlOutput) >= 2 { wl_output_send_done(wlOutput) }
        } else {
            zxdg_output_v1_send_done(object.resource)
        }
    }
}

/// `zxdg_output_v1`: one output's logical place and size, for one client. `output` is nil
/// for an inert one (its output was gone when it was made).
final class XdgOutputObject: WaylandObject {
    let output: ServedOutput?

    init(server: WaylandServer, owner: ClientState, resource: ResourcePointer, output: ServedOutput?) {
        self.output = output
        super.init(server: server, owner: owner, resource: resource)
    }

    /// The output went from `old` to `new` in the layout: what changed, and for versions 1
    /// and 2 the object's own `done` (version 3 waits for the `wl_output.done` that follows).
    func sendChange(from old: Rect, to new: Rect) {
        if new.x != old.x || new.y != old.y { zxdg_output_v1_send_logical_position(resource, new.x, new.y) }
        if new.width != old.width || new.height != old.height {
            zxdg_output_v1_send_logical_size(resource, new.width, new.height)
        }
        if version < 3 { zxdg_output_v1_send_done(resource) }
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: ZxdgOutputV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // destroy
        }
    }

    override func resourceDestroyed() { output?.xdgOutputs.removeAll { $0 == resource } }
}
