// --xdg-output V: bind zxdg_output_manager_v1 at version V (implies --outputs) and make a
// zxdg_output_v1 for every wl_output, those announced later included; print its events
// with the output's label (Outputs.swift), and destroy it when the output goes:
//
//   xdg-output o1 logical_position 0,0 / xdg-output o1 logical_size 800x600
//   xdg-output o1 name OUT-1 / xdg-output o1 description … / xdg-output o1 done
import CWaylandClient
import CWaylandProtocolsClient

var xdgOutputVersion: UInt32 = 0
var xdgOutputManager: OpaquePointer?

func xdgOutputLabel(_ proxy: OpaquePointer?) -> String { probeOutputs.first { $0.xdgOutput == proxy }?.label ?? "?" }

func bindXdgOutputManager(_ registry: OpaquePointer?, _ name: UInt32, _ version: UInt32) {
    guard xdgOutputVersion > 0 else { return }
    xdgOutputManager = bind(registry, name, "zxdg_output_manager_v1", min(version, xdgOutputVersion))
    for o in probeOutputs { makeXdgOutput(o) }
}

/// The xdg output of `o`, once both it and the manager are bound.
func makeXdgOutput(_ o: ProbeOutput) {
    guard let manager = xdgOutputManager, o.xdgOutput == nil else { return }
    o.xdgOutput = zxdg_output_manager_v1_get_xdg_output(manager, o.proxy)
    zxdg_output_v1_add_listener(o.xdgOutput, xdgOutputListener, nil)
}

func destroyXdgOutput(_ o: ProbeOutput) {
    if let x = o.xdgOutput { zxdg_output_v1_destroy(x) }
    o.xdgOutput = nil
}

let xdgOutputListener: UnsafeMutablePointer<zxdg_output_v1_listener> = {
    let l = UnsafeMutablePointer<zxdg_output_v1_listener>.allocate(capacity: 1)
    l.initialize(to: zxdg_output_v1_listener())
    l.pointee.logical_position = { _, x, px, py in say("xdg-output \(xdgOutputLabel(x)) logical_position \(px),\(py)") }
    l.pointee.logical_size = { _, x, w, h in say("xdg-output \(xdgOutputLabel(x)) logical_size \(w)x\(h)") }
    l.pointee.done = { _, x in say("xdg-output \(xdgOutputLabel(x)) done") }
    l.pointee.name = { _, x, n in say("xdg-output \(xdgOutputLabel(x)) name \(String(cString: n!))") }
    l.pointee.description = { _, x, d in say("xdg-output \(xdgOutputLabel(x)) description \(String(cString: d!))") }
    return l
}()
