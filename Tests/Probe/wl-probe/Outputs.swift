// --outputs: bind every wl_output (up to version 4) and print what each says, and which
// outputs each surface enters and leaves. Outputs are named o1, o2… in the order the
// registry announced them, so tests need no registry numbers:
//
//   output o1 geometry 0,0 make=InputRouter model=output
//   output o1 mode 800x600 60000 current,preferred
//   output o1 scale 1 / output o1 name OUT-1 / output o1 description … / output o1 done
//   output o2 removed          (wl_registry.global_remove; the probe releases it)
//   enter win o1 / leave win o2
import CWaylandClient
import Foundation

var watchOutputs = false
final class ProbeOutput {
    let label: String
    let registryName: UInt32
    let proxy: OpaquePointer
    /// Its zxdg_output_v1, with --xdg-output (XdgOutput.swift).
    var xdgOutput: OpaquePointer?
    init(label: String, registryName: UInt32, proxy: OpaquePointer) {
        self.label = label
        self.registryName = registryName
        self.proxy = proxy
    }
}
var probeOutputs: [ProbeOutput] = []
var outputsAnnounced = 0

func outputLabel(_ proxy: OpaquePointer?) -> String { probeOutputs.first { $0.proxy == proxy }?.label ?? "?" }

func bindOutput(_ registry: OpaquePointer?, _ name: UInt32, _ version: UInt32) {
    guard watchOutputs, let proxy = bind(registry, name, "wl_output", min(version, 4)) else { return }
    outputsAnnounced += 1
    let output = ProbeOutput(label: "o\(outputsAnnounced)", registryName: name, proxy: proxy)
    probeOutputs.append(output)
    wl_output_add_listener(proxy, outputListener, nil)
    makeXdgOutput(output)
}

/// Whether the removed global was an output (then it was printed and released).
func outputGlobalRemoved(_ name: UInt32) {
    guard let i = probeOutputs.firstIndex(where: { $0.registryName == name }) else { return }
    let o = probeOutputs.remove(at: i)
    say("output \(o.label) removed")
    destroyXdgOutput(o)
    wl_output_release(o.proxy)
}

let outputListener: UnsafeMutablePointer<wl_output_listener> = {
    let l = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    l.initialize(to: wl_output_listener())
    l.pointee.geometry = { _, o, x, y, _, _, _, make, model, _ in
        say(
            "output \(outputLabel(o)) geometry \(x),\(y) make=\(String(cString: make!)) model=\(String(cString: model!))"
        )
    }
    l.pointee.mode = { _, o, flags, w, h, refresh in
        var f: [String] = []
        if flags & UInt32(WL_OUTPUT_MODE_CURRENT.rawValue) != 0 { f.append("current") }
        if flags & UInt32(WL_OUTPUT_MODE_PREFERRED.rawValue) != 0 { f.append("preferred") }
        say("output \(outputLabel(o)) mode \(w)x\(h) \(refresh) \(f.joined(separator: ","))")
    }
    l.pointee.scale = { _, o, s in say("output \(outputLabel(o)) scale \(s)") }
    l.pointee.name = { _, o, n in say("output \(outputLabel(o)) name \(String(cString: n!))") }
    l.pointee.description = { _, o, d in say("output \(outputLabel(o)) description \(String(cString: d!))") }
    l.pointee.done = { _, o in say("output \(outputLabel(o)) done") }
    return l
}()

let surfaceListener: UnsafeMutablePointer<wl_surface_listener> = {
    let l = UnsafeMutablePointer<wl_surface_listener>.allocate(capacity: 1)
    l.initialize(to: wl_surface_listener())
    l.pointee.enter = { _, s, o in say("enter \(named(s)) \(outputLabel(o))") }
    l.pointee.leave = { _, s, o in say("leave \(named(s)) \(outputLabel(o))") }
    return l
}()

func watchSurfaceOutputs(_ p: ProbeSurface) {
    if watchOutputs { wl_surface_add_listener(p.surface, surfaceListener, nil) }
}
