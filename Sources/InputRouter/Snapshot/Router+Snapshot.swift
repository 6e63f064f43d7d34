// Capturing a whole scene and rebuilding a router from one (SceneState.swift).

extension Router {
    /// Everything routing depends on, as plain values: the tree, the clients, every seat.
    /// Off the routing path: allocates as much as the scene is large.
    public func captureScene() -> SceneState {
        var s = SceneState()
        s.opacityThreshold = tree.opacityThreshold
        s.slotCount = UInt32(tree.nodes.count)
        s.freeSlots = tree.capturedFreeSlots
        s.nodes = tree.captureNodes()
        s.clients = clients.dropFirst().map { c in
            var state = ClientState(name: c.name)
            state.alive = c.alive
            state.handler = c.handler == nil ? nil : c.handlerName
            return state
        }
        s.seats = seats.map { $0.captureState() }
        s.serialCounter = capturedSerialCounter
        return s
    }

    /// Follows `journal` (`SceneJournal(replaying:)`) from now: its edits are redone here
    /// (`SceneJournal.applyEdits(before:)`), and every handler call the routing makes is
    /// answered as the recorded one was.
    public func follow(_ journal: SceneJournal, handlers: SceneHandlers = SceneHandlers()) {
        journal.replayRouter = self
        journal.replayContainmentTests = handlers.containmentTests
        if let h = handlers.fallbackHandler { journal.placeholder = h }
        tree.journal = journal
    }

    /// A router in the state `scene` describes, with no client connected: what clients had
    /// bound and been told is as it was, so the next event routes as it would have.
    /// `keyTranslator` gives each seat its keyboard layer (by the seat's state, whose
    /// `keymap` names the keymap) before its held keys are restored. Throws
    /// `SceneRebuildError` for a scene that names what it does not hold.
    public convenience init(
        restoring scene: SceneState, handlers: SceneHandlers = SceneHandlers(),
        keyTranslator: (SeatState) throws -> KeyTranslator? = { _ in nil }
    ) throws {
        self.init()
        for c in scene.clients {
            let id = addClient(name: c.name)
            if let h = c.handler {
                clients[Int(id.index)].handler = handlers.nodeHandlers[h] ?? handlers.fallbackHandler
                clients[Int(id.index)].handlerName = h
            }
        }
        for (i, c) in scene.clients.enumerated() where !c.alive { clients[i + 1].alive = false }
        try tree.restore(scene, handlers: handlers)
        for state in scene.seats {
            let seat = addSeat(name: state.name)
            seat.keyTranslator = try keyTranslator(state)
            try seat.restore(state, handlers: handlers)
        }
        restoreSerialCounter(scene.serialCounter)
        // Whatever rebuilding queued was told to clients before the snapshot.
        _ = takeDeliveries()
    }
}
