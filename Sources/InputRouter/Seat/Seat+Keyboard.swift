// The keyboard: a first responder that receives keys; bindings see every press first and
// consume its release too; enter carries only keys that were forwarded to that client and
// are still held; a release goes to whoever got the press, or nowhere.
extension Seat {
    /// The node that has the keyboard focus (the first responder for keys and actions), if any.
    public var keyboardFirstResponder: NodeID? { keyboard.focus }

    /// `becomeFirstResponder`: gives `node` the keyboard focus if it can take it (alive,
    /// visible, not a subsurface, allowed to). During a popup grab the topmost popup keeps
    /// it. Returns whether `node` now has the focus.
    @discardableResult
    public func setKeyboardFocus(_ node: NodeID?) -> Bool {
        tree.journaled(
            .keyboardFocus,
            {
                $0.seat = id.index
                $0.other = node
            }, { focusKeyboardNow(node) })
    }

    private func focusKeyboardNow(_ node: NodeID?) -> Bool {
        if let g = keyboardGrab { return g.enter(self, node: node) }
        return defaultKeyboardEnter(node)
    }

    /// What `setKeyboardFocus` does with no keyboard grab: the focus moves to `node` if it
    /// can take it (leave to the old one, enter with the keys its client was sent). While
    /// input is locked, only a node inside the lock's scope can (InputLock.swift).
    @discardableResult
    public func defaultKeyboardEnter(_ node: NodeID?) -> Bool {
        if let n = node {
            guard tree.canBecomeFirstResponder(n), tree.isVisible(n), mayTakeInput(n) else { return false }
        }
        moveKeyboardFocus(to: node)
        return true
    }

    /// `resignFirstResponder`: `node` gives up the focus; it falls back like a destroyed one.
    public func resignKeyboardFocus(_ node: NodeID) {
        guard keyboard.focus == node else { return }
        tree.journalNote(.resignKeyboardFocus, node) { $0.seat = id.index }
        let fallback = fallbackFocus(excluding: node, client: keyboard.focusClient)
        moveKeyboardFocus(to: fallback)
    }

    func moveKeyboardFocus(to target: NodeID?) {
        // Every focus change passes here: while input is locked, none leaves the scope.
        let node = target.flatMap { mayTakeInput($0) ? $0 : nil }
        guard node != keyboard.focus else { return }
        defer {
            updateShortcutsInhibitor()
            constraintKeyboardFocusDidChange()
            padsFollowKeyboardFocus()
        }
        if let old = keyboard.focus, old != node {
            if keyboard.entered, tree.isAlive(old) {
                enqueue(.keyboardLeave(id, old, serial: nextSerial()))
            } else if !isClientNode(old), tree.isAlive(old) {
                _ = callHandler(.node(old), .keyboardLeave)
            }
        }
        keyboard.entered = false
        keyboard.focus = node
        guard let n = node else { return }
        keyboard.focusClient = tree.client(of: n) ?? .compositor
        noteFocused(n)
        if isClientNode(n) { enterKeyboard(n) } else { _ = callHandler(.node(n), .keyboardEnter) }
    }

    /// Moves `n` to the newest end of the focus history, which holds each node once (the
    /// last match is the only one). Searched from the newest end: the node given the focus
    /// is most often one focused lately (a click between two windows), and from the oldest
    /// end a desktop's history of 30 windows cost about 115 instructions per focus change.
    /// A node already there moves in place, the newer ones each one step down: removing it
    /// and appending it paid two uniqueness checks, a bounds check and a capacity check.
    @inline(__always) func noteFocused(_ n: NodeID) {
        if let old = keyboard.focusHistory.lastIndex(of: n) {
            keyboard.focusHistory.withUnsafeMutableBufferPointer { h in
                // One memmove: an element at a time, a history of 30 cost ~90 more.
                let base = h.baseAddress.unsafelyUnwrapped
                (base + old).update(from: base + old + 1, count: h.count - old - 1)
                base[h.count - 1] = n
            }
            return
        }
        if keyboard.focusHistory.count >= Seat.historyLimit { keyboard.focusHistory.removeFirst() }
        keyboard.focusHistory.append(n)
    }

    func enterKeyboard(_ n: NodeID) {
        let client = keyboard.focusClient
        guard boundDevices(of: client).contains(.keyboard) else { return }
        // A loop, not a filtered sequence: its closure would capture `self` in a box. Through
        // `withRouter`: each `router.queue` retained and released the router.
        var keys = withRouter { $0.queue.startKeys() }
        for k in keyboard.heldKeys where keyboard.keyRecipients[Int(k)] == .client(client) {
            withRouter { $0.queue.appendKey(k, to: &keys) }
        }
        enqueue(.keyboardEnter(id, n, keys: keys, serial: recordedSerial(.keyboardEnter, client: client, at: cursor)))
        enqueue(.modifiers(id, n, modifiers, serial: recordedSerial(.modifiers, client: client, at: cursor)))
        keyboard.entered = true
    }

    func isClientNode(_ n: NodeID) -> Bool { tree.kind(of: n)?.isClientSurface ?? false }

    /// The surface focus falls back to: the most recently focused one of the same client
    /// that can still take it, else the most recent of any client. While input is locked,
    /// only one inside the lock's scope, else none: never a window under the lock.
    func fallbackFocus(excluding gone: NodeID?, client: ClientID) -> NodeID? {
        if let top = popupGrab?.stack.last, top != gone, mayTakeInput(top) { return top }
        let usable: (NodeID) -> Bool = { n in
            n != gone && self.tree.canBecomeFirstResponder(n) && self.tree.isVisible(n) && self.mayTakeInput(n)
        }
        if let n = keyboard.focusHistory.last(where: { usable($0) && self.tree.client(of: $0) == client }) { return n }
        return keyboard.focusHistory.last(where: usable)
    }

    func refocusKeyboardIfNeeded() {
        keyboard.focusHistory.removeAll { !tree.isAlive($0) }
        if let top = popupGrab?.stack.last, keyboard.focus != top {
            moveKeyboardFocus(to: top)
            return
        }
        guard let f = keyboard.focus, !tree.isVisible(f) else { return }
        moveKeyboardFocus(to: fallbackFocus(excluding: f, client: keyboard.focusClient))
    }

    // MARK: Keys

    /// Adds a compositor key binding, checked on each press before the focus sees the key.
    /// `whileLocked`: it also runs while input is locked (`Router.lockInput(to:)`), when no
    /// other binding does, like sway's `bindsym --locked`. Keep such bindings to the one
    /// escape a locked session needs (a VT switch, quitting the compositor): anything they
    /// do happens with the screen locked. Allocates: call at setup, not per event.
    /// `name` is what a scene snapshot calls the action (`SceneHandlers.bindingActions`).
    public func addBinding(
        _ binding: KeyBinding, whileLocked: Bool = false, name: String = "", action: @escaping () -> Void
    ) {
        bindings.append((binding, whileLocked, action))
        bindingNames.append(name)
    }

    /// Forgets every key binding (e.g. before loading a new configuration).
    public func removeAllBindings() {
        bindings.removeAll()
        bindingNames.removeAll()
    }

    /// One key transition of one device (evdev code).
    public func notifyKey(time: UInt64, key: UInt32, state: KeyState, device: DeviceID = DeviceID(0)) {
        routeKeyEvent(time: time, key: key, state: state, device: device)
    }

    /// `notifyKey`'s body, inlined into `handleKey` too: a call from there cost every key a
    /// second frame (about 11 instructions).
    @inline(__always) func routeKeyEvent(time: UInt64, key: UInt32, state: KeyState, device: DeviceID) {
        let code = Int(key)
        guard code < Seat.codeCount else {
            drop(.key)
            return
        }
        lastTime = time
        deviceKeys.track(device: device, code: key, pressed: state == .pressed)
        switch countTransition(keyboard.keyCounts, code, pressed: state == .pressed) {
        case .unmatchedRelease:
            drop(.key)
            return
        case .counted: return
        case .forwarded:
            if state == .pressed { keyboard.heldKeys.append(key) } else { keyboard.heldKeys.remove(key) }
        }
        // A key of another device may be in another keymap (Seat+KeyboardDevices.swift).
        if device != lastKeyDevice { keyDeviceChanged(device) }
        let meaning = translate(key: key, state: state) ?? KeyMeaning(keysym: 0, baseKeysym: 0, modifiers: modifiers)
        // The commonest key, a plain one for the client with the focus, is sent here; every
        // other goes through the routing steps, out of line (inlined, their registers and
        // stack made every key's frame larger; the compiler also stopped inlining them).
        if let f = keyboard.focus, keyboard.entered {
            if state == .pressed {
                if !keyCaptured(meaning) {
                    // A menu opened from the keyboard cites this serial in xdg_popup.grab.
                    let serial = recordedSerial(.keyPress, client: keyboard.focusClient, at: cursor)
                    enqueue(.key(id, f, time: time, key: key, .pressed, serial: serial))
                    keyboard.keyRecipients[code] = .client(keyboard.focusClient)
                    return finishKey(meaning)
                }
            } else if case .client(let c) = keyboard.keyRecipients[code], c == keyboard.focusClient {
                keyboard.keyRecipients[code] = .none
                // GTK opens a MenuButton's menu on the key's release and cites this serial.
                enqueue(
                    .key(
                        id, f, time: time, key: key, .released,
                        serial: recordedSerial(.keyRelease, client: c, at: cursor)))
                return finishKey(meaning)
            }
        }
        routeKey(time: time, key: key, state: state, meaning: meaning)
    }

    /// Whether anything before the focus may take a press with this meaning: the escape
    /// (while it has something to end), the bindings (unless the focus inhibits them), a
    /// keyboard grab, or the input method (offered compose sequences only).
    @inline(__always) private func keyCaptured(_ meaning: KeyMeaning) -> Bool {
        escapeApplies || (!bindings.isEmpty && activeShortcutsInhibitor == nil) || keyboardGrab != nil
            || (meaning.compose != .none && inputMethod != nil) || inputMethodKeyboard != nil
    }

    /// Compared here: most keys change no modifier, and the call cost more than the test.
    @inline(__always) private func finishKey(_ meaning: KeyMeaning) {
        if meaning.modifiers != modifiers { updateModifiers(meaning.modifiers) }
    }

    /// Every key `notifyKey` does not send itself. The seat's `modifiers` are still those
    /// before the key (only `finishKey` changes them), which bindings match against.
    @inline(never)
    private func routeKey(time: UInt64, key: UInt32, state: KeyState, meaning: KeyMeaning) {
        if state == .pressed {
            routePress(time: time, key: key, meaning: meaning, modifiersBefore: modifiers)
        } else {
            routeRelease(time: time, key: key, meaning: meaning)
        }
        finishKey(meaning)
    }

    @inline(__always)
    private func routePress(time: UInt64, key: UInt32, meaning: KeyMeaning, modifiersBefore: Modifiers) {
        let code = Int(key)
        if escapeApplies, let escape = escapeBinding, escape.matches(meaning, modifiersBefore: modifiersBefore) {
            keyboard.keyRecipients[code] = .consumed
            runEscape(key: key)
            return
        }
        // Capture phase: bindings consume the press and, later, its release (unless the
        // focus inhibits them: then the client gets every key).
        // Tested first: the loop retained and released the array even when it was empty.
        // Matching is pure, so the inhibitor, which only an action could change, is read once.
        if !bindings.isEmpty && activeShortcutsInhibitor == nil {
            // While input is locked only the bindings added `whileLocked` run.
            let locked = withRouter { $0.inputLockScope } != nil
            for (i, b) in bindings.enumerated()
            where (!locked || b.whileLocked) && b.binding.matches(meaning, modifiersBefore: modifiersBefore) {
                keyboard.keyRecipients[code] = .consumed
                enqueue(.binding(id, index: Int32(i), key: key))
                b.action()
                return
            }
        }
        if let im = inputMethodKeyboard, im(.key(time: time, key: key, state: .pressed, device: lastKeyDevice)) {
            keyboard.keyRecipients[code] = .inputMethod
            return
        }
        if let g = keyboardGrab {
            keyboard.keyRecipients[code] = .grab // unless the grab passes the press on
            g.key(self, time: time, key: key, state: .pressed, meaning: meaning)
            return
        }
        routeToFocus(time: time, key: key, meaning: meaning)
    }

    /// What a key does with no keyboard grab: a press goes to the keyboard focus (or along
    /// its chain's handlers); a release goes where its press went. For a grab's `key`.
    public func defaultKey(time: UInt64, key: UInt32, state: KeyState, meaning: KeyMeaning) {
        guard Int(key) < Seat.codeCount else { return }
        if state == .pressed {
            routeToFocus(time: time, key: key, meaning: meaning)
        } else {
            routeRelease(time: time, key: key, meaning: meaning)
        }
    }

    @inline(__always)
    private func routeToFocus(time: UInt64, key: UInt32, meaning: KeyMeaning) {
        let code = Int(key)
        if meaning.compose != .none, let f = keyboard.focus, isClientNode(f), let im = inputMethod, im(f, key, meaning)
        {
            keyboard.keyRecipients[code] = .consumed
            enqueue(.inputMethodKey(id, f, key: key))
            return
        }
        if let f = keyboard.focus, keyboard.entered {
            // A menu opened from the keyboard cites this serial in xdg_popup.grab.
            let serial = recordedSerial(.keyPress, client: keyboard.focusClient, at: cursor)
            enqueue(.key(id, f, time: time, key: key, .pressed, serial: serial))
            keyboard.keyRecipients[code] = .client(keyboard.focusClient)
            return
        }
        let taker = dispatch(from: keyboardChainStart, device: .keyboard, handlersOnly: true, at: cursor) { _ in
            .key(key: key, state: .pressed, keysym: meaning.keysym)
        }
        if let t = taker {
            keyboard.keyRecipients[code] = .responder(t)
            enqueue(.handled(id, t, .key))
        } else {
            keyboard.keyRecipients[code] = .none
            drop(.key)
        }
    }

    @inline(__always)
    private func routeRelease(time: UInt64, key: UInt32, meaning: KeyMeaning) {
        let code = Int(key)
        let recipient = keyboard.keyRecipients[code]
        keyboard.keyRecipients[code] = .none
        switch recipient {
        case .consumed, .none:
            return
        case .grab:
            keyboardGrab?.key(self, time: time, key: key, state: .released, meaning: meaning)
        case .inputMethod:
            _ = inputMethodKeyboard?(.key(time: time, key: key, state: .released, device: lastKeyDevice))
        case .client(let c):
            // Only while that client still has the focus; after a leave it knows the key is up.
            if let f = keyboard.focus, keyboard.entered, keyboard.focusClient == c {
                enqueue(
                    .key(
                        id, f, time: time, key: key, .released,
                        serial: recordedSerial(.keyRelease, client: c, at: cursor)))
            }
        case .responder(let r):
            if responderCanReceive(r),
                callHandler(r, .key(key: key, state: .released, keysym: meaning.keysym)) == .handled
            {
                enqueue(.handled(id, r, .key))
            }
        }
    }

    /// Sends the modifiers to the focused client when they change, whoever caused it.
    func updateModifiers(_ new: Modifiers) {
        guard new != modifiers else { return }
        modifiers = new
        if let im = inputMethodKeyboard, im(.modifiers(new)) { return }
        if let g = keyboardGrab { g.modifiers(self) } else { defaultModifiers() }
    }

    /// Sends `modifiers` to the keyboard focus, if its client was told of the focus.
    public func defaultModifiers() {
        if let f = keyboard.focus, keyboard.entered {
            enqueue(
                .modifiers(
                    id, f, modifiers, serial: recordedSerial(.modifiers, client: keyboard.focusClient, at: cursor)))
        }
    }
}
