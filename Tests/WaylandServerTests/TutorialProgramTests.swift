// The DocC tutorial's last step ("Route input in your own compositor", the file
// embed-06-policy.swift of InputRouter.docc) run as its reader runs it: its own display on a
// socket, a wl-probe window, input from a `libinput debug-events` file, and the exact events
// the client got. The build compiles every step; this checks that the finished program routes.
import Foundation
import Testing

@Suite(.serialized) struct TutorialProgramTests {
    /// The cursor starts where the program warps it, (640, 360) on the desktop. Onto the
    /// window, off it onto the desktop and click there, back onto the window and click it,
    /// then type `a`.
    static let input = """
        -event0   DEVICE_ADDED            Test Mouse                        seat0 default group1  cap:p
        -event1   DEVICE_ADDED            Test Keyboard                     seat0 default group2  cap:k
        -event0   POINTER_MOTION          +0.100s\t-560.00/-300.00 (-560.00/-300.00)
         event0   POINTER_MOTION          +0.200s\t400.00/  0.00 (400.00/  0.00)
         event0   POINTER_BUTTON          +0.300s\tBTN_LEFT (272) pressed, seat count: 1
         event0   POINTER_BUTTON          +0.400s\tBTN_LEFT (272) released, seat count: 0
         event0   POINTER_MOTION          +0.500s\t-400.00/  0.00 (-400.00/  0.00)
         event0   POINTER_BUTTON          +0.600s\tBTN_LEFT (272) pressed, seat count: 1
         event0   POINTER_BUTTON          +0.700s\tBTN_LEFT (272) released, seat count: 0
        -event1   KEYBOARD_KEY            +0.800s\tKEY_A (30) pressed
         event1   KEYBOARD_KEY            +0.900s\tKEY_A (30) released
        """

    func wait(
        for process: ClientProcess, _ awaiting: String, timeout: Double = 15,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            process.poll()
            if process.lines.contains(awaiting) { return }
            usleep(2000)
        }
        Issue.record(
            "timed out awaiting '\(awaiting)'; it said:\n\(process.lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
    }

    @Test func theFinishedProgramRoutesAWindowsInput() throws {
        let inputPath = runtimeDirectory + "/tutorial-input-\(getpid()).txt"
        try Self.input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let socket = "ir-tutorial-\(getpid())"
        let tutorial = try ClientProcess(
            productsDirectory + "/tutorial-embed-06", [socket, inputPath], socket: socket,
            environment: ["XKB_DEFAULT_LAYOUT": "us"])
        let socketPath = runtimeDirectory + "/" + socket
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socketPath), Date() < deadline { usleep(10000) }
        let probe = try ClientProcess(
            productsDirectory + "/wl-probe", ["--toplevel", "win", "200x100"], socket: socket)
        wait(for: probe, "keyboard.key 30 released")
        // The window closes with its client; the program ends once its input is played and
        // no window is left, and prints what it saw.
        kill(probe.process.processIdentifier, SIGKILL)
        probe.process.waitUntilExit()
        let exited = Date().addingTimeInterval(15)
        while tutorial.process.isRunning, Date() < exited { usleep(10000) }
        #expect(!tutorial.process.isRunning, "the program did not end when its last window closed")
        guard !tutorial.process.isRunning else { return }
        #expect(tutorial.process.terminationStatus == 0)
        tutorial.poll()

        // The policy cascades the first window to (40, 40); the motion takes the cursor from
        // (640, 360) to (80, 60), which is (40, 20) in the window: wl_pointer.enter's
        // surface-local position. The desktop click clears the keyboard; the click on the
        // window gives it back before the press is delivered (the capture phase), and the
        // activated state follows. Then the key. (wl-probe's own "ready", after its
        // roundtrip following the map, may come before or after the first motion's events.)
        #expect(
            probe.lines.filter { $0 != "ready" } == [
                "seat.capabilities 3", "configure win 0x0 []", "keyboard.keymap format=1 size>0=true",
                "keyboard.repeat_info 25 600", "keyboard.enter win keys=[]", "keyboard.modifiers 0 0 0 0",
                "configure win 0x0 [activated]", "mapped win",
                "pointer.enter win 40.00 20.00", "pointer.motion 40.00 20.00", "pointer.frame",
                "pointer.leave win", "pointer.frame",
                "keyboard.leave win", "configure win 0x0 []",
                "pointer.enter win 40.00 20.00", "pointer.motion 40.00 20.00", "pointer.frame",
                "keyboard.enter win keys=[]", "keyboard.modifiers 0 0 0 0",
                "pointer.button 272 pressed", "pointer.frame", "configure win 0x0 [activated]",
                "pointer.button 272 released", "pointer.frame",
                "keyboard.key 30 pressed", "keyboard.key 30 released",
            ])
        #expect(tutorial.lines.first == "listening on \(socket)")
        #expect(tutorial.lines.contains("press on desktop at 480,60; chain: desktop → windows → seat0"))
        #expect(tutorial.lines.contains("desktop took button 272 at 480,60"))
        #expect(
            tutorial.lines.contains(
                "press on client1 wl-probe: win at 40,20; chain: client1 wl-probe: win → client1 → seat0"))
        #expect(tutorial.lines.contains("focus: client client1 gets the keyboard"))
        #expect(tutorial.lines.contains("deliver: seat0 keyboard.key \"client1 wl-probe: win\" 30 pressed"))
    }
}
