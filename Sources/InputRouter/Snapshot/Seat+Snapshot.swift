// A seat's part of a scene snapshot: devices, what clients bound, the pointer, the keys
// held and who gets their releases, the touch points, the grab and the bindings. Restoring
// writes the state as it was, queueing nothing: the clients were told all of it already.

extension Seat {
    /// This seat's state as plain values.
    func captureState() -> SeatState {
        var s = SeatState(name: name)
        for slot in devices.indices where devices[slot].present {
            s.devices.append((Seat.deviceIndex(ofSlot: slot), devices[slot].capabilities.rawValue))
        }
        s.bound = bound.map(\.rawValue)
        s.cursor = cursor
        s.pointerFocus = pointer.focus.map(Seat.state(of:))
        s.pointerLocal = pointer.local
        s.heldButtons = (0..<Seat.codeCount).filter { pointer.buttonCounts[$0] > 0 }.map {
            (UInt32($0), pointer.buttonCounts[$0])
        }
        s.deviceButtons = deviceButtons.allHeld.map { (Seat.deviceIndex(ofSlot: $0.slot), $0.codes) }
        s.consumedButtons = (0..<Seat.codeCount).filter { pointer.consumedButtons[$0] }.map(UInt32.init)
        s.keyboardFocus = keyboard.focus?.index
        s.keyboardEntered = keyboard.entered
        s.focusHistory = keyboard.focusHistory.map(\.index)
        for code in keyboard.heldKeys {
            s.heldKeys.append(
                (code, keyboard.keyCounts[Int(code)], Seat.state(of: keyboard.keyRecipients[Int(code)])))
        }
        s.deviceKeys = deviceKeys.allHeld.map { (Seat.deviceIndex(ofSlot: $0.slot), $0.codes) }
        s.modifiers = modifiers
        for p in touch.points {
            s.touchPoints.append((p.slot, p.device.index, Seat.state(of: p.owner), p.client.index))
        }
        s.touchFrameClients = touch.frameClients.map(\.index)
        s.pointerGrab = capturedGrab()
        s.keymap = keymapNames
        for (i, b) in bindings.enumerated() {
            let name = i < bindingNames.count ? bindingNames[i] : ""
            s.bindings.append((b.binding.keysym, b.binding.modifiers.rawValue, b.whileLocked, name))
        }
        s.handler = handler == nil ? nil : handlerName
        s.absoluteMapping = absoluteMapping
        s.lastTime = lastTime
        return s
    }

    private func capturedGrab() -> GrabState? {
        guard let g = pointerGrab else { return nil }
        if let p = popupGrab, g === p { return .popup(client: p.client.index, stack: p.stack.map(\.index)) }
        if let m = g as? MoveGrab { return .move(node: m.node.index, offset: m.offset) }
        if let r = g as? ResizeGrab {
            return .resize(node: r.node.index, edges: r.edges.rawValue, start: r.start, startFrame: r.startSize)
        }
        return .other(String(describing: type(of: g)))
    }

    /// Writes `s` into this fresh seat. Nothing is queued.
    func restore(_ s: SeatState, handlers named: SceneHandlers) throws {
        func node(_ slot: UInt32, _ what: String) throws -> NodeID {
            guard Int(slot) < tree.nodes.count, tree.nodes[Int(slot)].alive else {
                throw SceneRebuildError("seat \(name): \(what) \(slot) is not a node")
            }
            return tree.id(ofSlot: slot)
        }
        func responder(_ r: ResponderState, _ what: String) throws -> Responder {
            switch r {
            case .node(let n): return .node(try node(n, what))
            case .client(let c):
                guard Int(c) < router.clients.count else { throw SceneRebuildError("seat \(name): no client \(c)") }
                return .client(ClientID(index: c))
            case .seat(let i): return .seat(SeatID(index: i))
            }
        }
        func device(_ index: UInt32) -> DeviceID { DeviceID(index) }

        for d in s.devices {
            notifyDeviceAdded(device(d.id), capabilities: DeviceCapabilities(rawValue: d.capabilities))
        }
        guard s.bound.count <= bound.count else {
            throw SceneRebuildError(
                "seat \(name): bindings listed for \(s.bound.count) clients, the scene has \(bound.count)")
        }
        for (i, raw) in s.bound.enumerated() { bound[i] = BoundDevices(rawValue: raw) }
        anyRelativePointer = bound.contains { $0.contains(.relativePointer) }

        cursor = s.cursor
        pointer.focus = try s.pointerFocus.map { try responder($0, "pointer focus") }
        pointer.local = s.pointerLocal
        pointer.lastFirstResponder = nil
        pointer.focusSurface = FocusSurfaceCache()
        for b in s.heldButtons where b.count > 0 {
            guard Int(b.code) < Seat.codeCount else {
                throw SceneRebuildError("seat \(name): button \(b.code) out of range")
            }
            if pointer.buttonCounts[Int(b.code)] == 0 { pointer.heldButtonCount += 1 }
            pointer.buttonCounts[Int(b.code)] = b.count
        }
        for d in s.deviceButtons {
            for code in d.codes { deviceButtons.track(device: device(d.device), code: code, pressed: true) }
        }
        for code in s.consumedButtons where Int(code) < Seat.codeCount { pointer.consumedButtons[Int(code)] = true }

        if let f = s.keyboardFocus {
            let n = try node(f, "keyboard focus")
            keyboard.focus = n
            keyboard.focusClient = tree.client(of: n) ?? .compositor
            keyboard.entered = s.keyboardEntered
        }
        keyboard.focusHistory = try s.focusHistory.map { try node($0, "focus history entry") }
        for k in s.heldKeys where k.count > 0 {
            guard Int(k.code) < Seat.codeCount else {
                throw SceneRebuildError("seat \(name): key \(k.code) out of range")
            }
            guard keyboard.keyCounts[Int(k.code)] == 0 else {
                throw SceneRebuildError("seat \(name): key \(k.code) listed twice")
            }
            keyboard.heldKeys.append(k.code)
            keyboard.keyCounts[Int(k.code)] = k.count
            keyboard.keyRecipients[Int(k.code)] = try keyRecipient(k.recipient, responder)
            // The keymap's state follows the keys held (Shift held shifts the next key).
            _ = keyTranslator?.translate(key: k.code, state: .pressed)
        }
        for d in s.deviceKeys {
            for code in d.codes { deviceKeys.track(device: device(d.device), code: code, pressed: true) }
        }
        modifiers = s.modifiers

        for t in s.touchPoints {
            let owner: TouchPoint.Owner
            switch t.owner {
            case .client(let n): owner = .client(try node(n, "touch owner"))
            case .responder(let r): owner = .responder(try responder(r, "touch owner"))
            case .recognizer(let i): owner = .recognizer(i)
            case .grab: owner = .grab
            case .cancelled: owner = .cancelled
            }
            touch.points.append(
                TouchPoint(slot: t.slot, device: DeviceID(t.device), owner: owner, client: ClientID(index: t.client)))
        }
        touch.frameClients = s.touchFrameClients.map { ClientID(index: $0) }

        switch s.pointerGrab {
        case nil: break
        case .popup(let client, let stack):
            let grab = PopupGrab(client: ClientID(index: client))
            grab.stack = try stack.map { try node($0, "popup") }
            popupGrab = grab
            pointerGrab = grab
            touchGrab = grab
            keyboardGrab = grab
        case .move(let n, let offset): pointerGrab = MoveGrab(node: try node(n, "moved node"), offset: offset)
        case .resize(let n, let edges, let start, let frame):
            pointerGrab = ResizeGrab(
                node: try node(n, "resized node"), edges: ResizeEdges(rawValue: edges), start: start, startSize: frame)
        case .other(let type):
            throw SceneRebuildError("seat \(name): the grab \(type) is the embedder's own and has no snapshot form")
        }

        keymapNames = s.keymap
        for b in s.bindings {
            let binding = KeyBinding(keysym: b.keysym, modifiers: ModifierMask(rawValue: b.modifiers))
            addBinding(binding, whileLocked: b.whileLocked, name: b.name, action: named.bindingActions[b.name] ?? {})
        }
        if let h = s.handler {
            handler = named.nodeHandlers[h] ?? named.fallbackHandler
            handlerName = h
        }
        absoluteMapping = s.absoluteMapping
        lastTime = s.lastTime
    }

    private func keyRecipient(
        _ r: KeyRecipientState, _ responder: (ResponderState, String) throws -> Responder
    ) throws -> KeyRecipient {
        switch r {
        case .none: .none
        case .client(let c): .client(ClientID(index: c))
        case .responder(let x): .responder(try responder(x, "key recipient"))
        case .consumed: .consumed
        case .grab: .grab
        case .inputMethod: .inputMethod
        }
    }

    /// `DeviceID.slot` backwards.
    static func deviceIndex(ofSlot slot: Int) -> UInt32 {
        let s = UInt32(slot)
        return s >> 1 | s << 31
    }

    static func state(of r: Responder) -> ResponderState {
        switch r {
        case .node(let n): .node(n.index)
        case .client(let c): .client(c.index)
        case .seat(let s): .seat(s.index)
        }
    }

    static func state(of r: KeyRecipient) -> KeyRecipientState {
        switch r {
        case .none: .none
        case .client(let c): .client(c.index)
        case .responder(let x): .responder(state(of: x))
        case .consumed: .consumed
        case .grab: .grab
        case .inputMethod: .inputMethod
        }
    }

    static func state(of o: TouchPoint.Owner) -> TouchOwnerState {
        switch o {
        case .client(let n): .client(n.index)
        case .responder(let r): .responder(state(of: r))
        case .recognizer(let i): .recognizer(i)
        case .grab: .grab
        case .cancelled: .cancelled
        }
    }
}
