// Commands read from stdin, one a line, to change the scene after it is built: tests use
// them to check that pending state takes effect only on commit. Each is answered with
// "done COMMAND" once the server has processed it.
//
//   region NAME x,y,w,h    set NAME's input region to one rectangle (pending)
//   commit NAME            commit NAME
//   position NAME x,y      wl_subsurface.set_position (applied on the parent's commit)
//   sync NAME / desync NAME
import CWaylandClient
import Foundation

func runCommand(_ line: String) {
    let words = line.split(separator: " ").map(String.init)
    guard words.count >= 2, let p = probe(words[1]) else { return say("bad command: \(line)") }
    switch words[0] {
    case "region" where words.count == 3:
        let r = rect(words[2])
        let region = wl_compositor_create_region(compositor)
        wl_region_add(region, r.0, r.1, r.2, r.3)
        wl_surface_set_input_region(p.surface, region)
        wl_region_destroy(region)
    case "commit": wl_surface_commit(p.surface)
    case "position" where words.count == 3:
        let (x, y) = pair(words[2], ",")
        wl_subsurface_set_position(p.subsurface, x, y)
    case "sync": wl_subsurface_set_sync(p.subsurface)
    case "desync": wl_subsurface_set_desync(p.subsurface)
    default: return say("bad command: \(line)")
    }
    announceAfterServerSaw("done \(line)")
}
