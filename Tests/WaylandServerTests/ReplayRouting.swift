// Recordings routed as a compositor replays them: each device added with what the file says
// of it, handed beside its `deviceAdded` (a tablet is announced with its name, id and path).
import InputRouter
import InputRouterRecording
import InputRouterWayland

extension WaylandServer {
    /// Routes every event of `recording` in order on `seat` (nil: the first), as a `Replayer`
    /// hands them out, each with `Replayer.description(of:)`.
    func handle(_ recording: Recording, seat: Seat? = nil) throws {
        var replayer = try Replayer(recording, speed: .asFastAsPossible)
        while let event = replayer.next() { handle(event, description: replayer.description(of: event), seat: seat) }
    }
}
