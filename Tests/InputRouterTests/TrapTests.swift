import InputRouter
import Testing

/// The core's two deliberate traps, each run in a child process (an exit test): each must
/// end the process with its message rather than read freed memory.
@Suite struct TrapTests {
    /// The text the child wrote to standard error.
    static func standardError(_ result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    /// A hit-test walks the tree's record memory in place; a containment test that changes
    /// the tree (which may move that memory) traps.
    @Test func aContainmentTestThatChangesTheTreeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let tree = SurfaceTree()
            let button = tree.createNode(.compositor, name: "button", frame: Rect(0, 0, 100, 100))
            tree.setContainmentTest(button) { _ in
                tree.move(button, to: (x: 10, y: 10))
                return true
            }
            _ = tree.hitTest(Point(50, 50))
        }
        #expect(
            Self.standardError(result).contains(
                "the surface tree changed during a hit-test (a containment test must not change it)"),
            "\(Self.standardError(result))")
    }

    /// A seat keeps an unowned(unsafe) reference to its router; used after the router is
    /// released it traps instead of reaching freed memory.
    @Test func aSeatUsedAfterItsRouterIsReleasedTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var router: Router? = Router()
            let seat = router!.addSeat()
            seat.handle(InputEvent(time: 1, device: DeviceID(1), .deviceAdded([.pointer])))
            router = nil
            seat.handle(InputEvent(time: 2, device: DeviceID(1), .pointerButton(button: 0x110, state: .pressed)))
        }
        #expect(
            Self.standardError(result).contains("a Seat was used after its Router was released"),
            "\(Self.standardError(result))")
    }

    /// The same seat and tree used correctly run to the end: what traps above is the misuse.
    @Test func theSameCallsWithoutTheMisuseDoNotTrap() async {
        await #expect(processExitsWith: .success) {
            let router = Router()
            let seat = router.addSeat()
            seat.handle(InputEvent(time: 1, device: DeviceID(1), .deviceAdded([.pointer])))
            seat.handle(InputEvent(time: 2, device: DeviceID(1), .pointerButton(button: 0x110, state: .pressed)))
            let button = router.tree.createNode(.compositor, name: "button", frame: Rect(0, 0, 100, 100))
            router.tree.setContainmentTest(button) { _ in true }
            _ = router.tree.hitTest(Point(50, 50))
            router.tree.move(button, to: (x: 10, y: 10))
        }
    }
}
