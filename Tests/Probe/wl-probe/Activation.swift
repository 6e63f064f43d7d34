// xdg-activation-v1 in the test client. Commands on stdin:
//   token NAME press|forged|none   ask for a token for surface NAME, citing the serial of the
//                                  last button press this client got, one the server never
//                                  sent, or no serial; prints `activation.token TOKEN`
//   activate NAME TOKEN            xdg_activation_v1.activate for NAME with TOKEN
//   token-again                    set_serial on the last committed token (already_used)
import CProbeShim
import CWaylandClient
import CWaylandProtocolsClient
import Foundation

var activation: OpaquePointer?
var lastToken: OpaquePointer?

let activationTokenListener: UnsafeMutablePointer<xdg_activation_token_v1_listener> = {
    let l = UnsafeMutablePointer<xdg_activation_token_v1_listener>.allocate(capacity: 1)
    l.initialize(to: xdg_activation_token_v1_listener())
    l.pointee.done = { _, _, token in say("activation.token \(token.map { String(cString: $0) } ?? "")") }
    return l
}()

/// `token` and `activate` commands; false when the line is not one.
func runActivationCommand(_ words: [String], _ p: ProbeSurface) -> Bool {
    guard let activation else { fail("the server lacks xdg_activation_v1") }
    switch words[0] {
    case "token" where words.count == 3:
        let token = xdg_activation_v1_get_activation_token(activation)!
        xdg_activation_token_v1_add_listener(token, activationTokenListener, nil)
        switch words[2] {
        case "press": xdg_activation_token_v1_set_serial(token, lastPressSerial, seat)
        case "forged": xdg_activation_token_v1_set_serial(token, lastPressSerial &+ 1000, seat)
        default: break
        }
        xdg_activation_token_v1_set_surface(token, p.surface)
        xdg_activation_token_v1_set_app_id(token, "wl-probe")
        xdg_activation_token_v1_commit(token)
        lastToken = token
    case "token-again":
        xdg_activation_token_v1_set_serial(lastToken, lastPressSerial, seat)
    case "activate" where words.count == 3:
        xdg_activation_v1_activate(activation, words[2], p.surface)
    default: return false
    }
    return true
}
