// Keymaps by RMLVO names, and key bindings with a C callback.
import CInputRouterAPI
import InputRouter
import InputRouterKeyboard

@_cdecl("ir_seat_set_keymap")
public func irSeatSetKeymap(_ router: OpaquePointer?, _ seat: UInt32, _ names: UnsafePointer<ir_rule_names>?)
    -> ir_error
{
    changingSeat(router, seat) { state, s in
        let defaults = RuleNames()
        var ruleNames = defaults
        if let n = names?.pointee {
            ruleNames = RuleNames(
                rules: string(n.rules, or: defaults.rules), model: string(n.model, or: defaults.model),
                layout: string(n.layout, or: defaults.layout), variant: string(n.variant, or: ""),
                options: string(n.options, or: ""))
        }
        // Compose is the compositor's business (bindings, traces); clients compose themselves.
        let configuration = KeyboardConfiguration(keymap: .names(ruleNames), compose: false)
        do {
            s.keyTranslator = try configuration.makeState(environment: [:])
            state.lastErrorText = ""
            return IR_OK
        } catch {
            state.lastErrorText = "\(error)"
            return IR_ERROR_KEYMAP
        }
    }
}

@_cdecl("ir_seat_keymap_text")
public func irSeatKeymapText(
    _ router: OpaquePointer?, _ seat: UInt32, _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int,
    _ length: UnsafeMutablePointer<Int>?
) -> ir_error {
    readingOutsideCallbacks(router) { state in
        guard let s = state.resolveSeat(seat) else { return IR_ERROR_UNKNOWN_SEAT }
        guard let keyboard = s.keyTranslator as? KeyboardState else { return IR_ERROR_NO_KEYMAP }
        return copyOut(keyboard.keymap.asString(), buffer, size, length)
    }
}

@_cdecl("ir_seat_add_binding")
public func irSeatAddBinding(
    _ router: OpaquePointer?, _ seat: UInt32, _ spec: UnsafePointer<CChar>?, _ callback: ir_binding_fn?,
    _ userData: UnsafeMutableRawPointer?, _ binding: UnsafeMutablePointer<Int32>?
) -> ir_error {
    changingSeat(router, seat) { state, s in
        guard let spec, let callback else { return IR_ERROR_NULL_ARGUMENT }
        guard s.keyTranslator != nil else { return IR_ERROR_NO_KEYMAP }
        let parsed: KeyBinding
        do {
            parsed = try KeyBinding(parsing: String(cString: spec))
        } catch {
            state.lastErrorText = "\(error)"
            return IR_ERROR_INVALID_BINDING
        }
        let index = Int32(s.bindings.count)
        s.addBinding(parsed) { callback(userData, seat, index) }
        binding?.pointee = index
        return IR_OK
    }
}

@_cdecl("ir_seat_remove_bindings")
public func irSeatRemoveBindings(_ router: OpaquePointer?, _ seat: UInt32) -> ir_error {
    changingSeat(router, seat) { _, s in
        s.removeAllBindings()
        return IR_OK
    }
}
