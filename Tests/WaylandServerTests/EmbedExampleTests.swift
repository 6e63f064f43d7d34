// examples/embed (ir-embed) as a user runs it: its own display on a socket, two wl-probe
// clients, input from a `libinput debug-events` file, and the exact events each client got,
// the decisions it printed and the picture it drew with pixman.
import Foundation
import Testing

@Suite(.serialized) struct EmbedExampleTests {
    /// A mouse and a keyboard: into the left window, click, type `a`, over to the right
    /// window, down onto the desktop, click.
    static let input = """
        -event0   DEVICE_ADDED            Test Mouse                        seat0 default group1  cap:p
        -event1   DEVICE_ADDED            Test Keyboard                     seat0 default group2  cap:k
        -event0   POINTER_MOTION          +0.100s\t 60.00/ 50.00 ( 60.00/ 50.00)
         event0   POINTER_BUTTON          +0.200s\tBTN_LEFT (272) pressed, seat count: 1
         event0   POINTER_BUTTON          +0.300s\tBTN_LEFT (272) released, seat count: 0
        -event1   KEYBOARD_KEY            +0.400s\tKEY_A (30) pressed
         event1   KEYBOARD_KEY            +0.500s\tKEY_A (30) released
        -event0   POINTER_MOTION          +0.600s\t400.00/  0.00 (400.00/  0.00)
         event0   POINTER_MOTION          +0.700s\t  0.00/300.00 (  0.00/300.00)
         event0   POINTER_BUTTON          +0.800s\tBTN_LEFT (272) pressed, seat count: 1
         event0   POINTER_BUTTON          +0.900s\tBTN_LEFT (272) released, seat count: 0
        """

    /// Polls `process` (no server in this process to dispatch) until a line satisfies `done`.
    @discardableResult
    func wait(
        for process: ClientProcess, _ awaiting: String, timeout: Double = 15,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            process.poll()
            if process.lines.contains(awaiting) { return true }
            usleep(2000)
        }
        Issue.record(
            "timed out awaiting '\(awaiting)'; it said:\n\(process.lines.joined(separator: "\n"))",
            sourceLocation: sourceLocation)
        return false
    }

    @Test func twoProbesGetTheRoutedEventsAndThePictureShowsThem() throws {
        let dir = runtimeDirectory
        let inputPath = dir + "/embed-input-\(getpid()).txt"
        let shot = dir + "/embed-\(getpid()).ppm"
        try Self.input.write(toFile: inputPath, atomically: true, encoding: .utf8)
        let socket = "ir-embed-\(getpid())"
        let embed = try ClientProcess(
            productsDirectory + "/ir-embed",
            [
                "--socket", socket, "--input", "debug-events:" + inputPath, "--windows", "2", "--exit-after-input",
                "--screenshot", shot,
            ],
            socket: socket, environment: ["XKB_DEFAULT_LAYOUT": "us"])
        wait(for: embed, "embed: listening on \(socket), output 640x480")
        // One after the other, so the example's grid puts left in the first cell.
        let left = try ClientProcess(
            productsDirectory + "/wl-probe", ["--toplevel", "left", "200x100"], socket: socket)
        wait(for: left, "ready")
        let right = try ClientProcess(
            productsDirectory + "/wl-probe", ["--toplevel", "right", "200x100"], socket: socket)
        wait(for: right, "ready")
        wait(for: embed, "embed: done")
        embed.process.waitUntilExit()
        #expect(embed.process.terminationStatus == 0)
        for probe in [left, right] { wait(for: probe, "disconnected errno=32") }

        // left at (20, 20): the cursor at (60, 50) is at (40, 30) in it. Mapping right took
        // the keyboard (a new window is focused); the click gave it back: the example's
        // focus-on-click, in the press's capture phase, so the keyboard's enter comes before
        // the press and the activated state after it (a text input's enter must follow the
        // keyboard's). Then the key, then the cursor
        // left for right and the desktop; the desktop click cleared the keyboard. The
        // server went before the display: the clients were disconnected.
        #expect(
            left.lines == [
                "seat.capabilities 3", "configure left 0x0 []", "keyboard.keymap format=1 size>0=true",
                "keyboard.repeat_info 25 600", "keyboard.enter left keys=[]", "keyboard.modifiers 0 0 0 0",
                "configure left 0x0 [activated]", "mapped left", "ready",
                "keyboard.leave left", "configure left 0x0 []",
                "pointer.enter left 40.00 30.00", "pointer.motion 40.00 30.00", "pointer.frame",
                "keyboard.enter left keys=[]", "keyboard.modifiers 0 0 0 0",
                "pointer.button 272 pressed", "pointer.frame", "configure left 0x0 [activated]",
                "pointer.button 272 released", "pointer.frame",
                "keyboard.key 30 pressed", "keyboard.key 30 released",
                "pointer.leave left", "pointer.frame",
                "keyboard.leave left", "configure left 0x0 []",
                "disconnected errno=32",
            ])
        // right at (340, 20): (460, 50) is (120, 30) in it.
        #expect(
            right.lines == [
                "seat.capabilities 3", "configure right 0x0 []", "keyboard.keymap format=1 size>0=true",
                "keyboard.repeat_info 25 600", "keyboard.enter right keys=[]", "keyboard.modifiers 0 0 0 0",
                "configure right 0x0 [activated]", "mapped right", "ready",
                "keyboard.leave right", "configure right 0x0 []",
                "pointer.enter right 120.00 30.00", "pointer.motion 120.00 30.00", "pointer.frame",
                "pointer.leave right", "pointer.frame",
                "disconnected errno=32",
            ])
        // What the example printed of its own work: the hit-test and the responder chain at
        // each press, and the desktop node taking the press no window took.
        #expect(
            embed.lines.contains(
                "embed: press on toplevel \"left\" at 40,30; chain: toplevel \"left\" → client1 → seat0"))
        #expect(embed.lines.contains("embed: desktop took button 272 at 460,350; no window has the keyboard"))
        #expect(
            embed.lines.contains(
                "embed: press on node \"desktop\" at 460,350; chain: node \"desktop\" → node \"windows\" → seat0"))
        #expect(embed.lines.contains("deliver: seat0 keyboard.key \"client1 wl-probe: left\" 30 pressed"))
        #expect(!embed.lines.contains { $0.contains("dropped") })

        // The picture: each window in wl-probe's colour for its name, where the grid put it,
        // on the example's background.
        let picture = try Data(contentsOf: URL(fileURLWithPath: shot))
        let header = Array("P6\n640 480\n255\n".utf8)
        #expect(Array(picture.prefix(header.count)) == header)
        func pixel(_ x: Int, _ y: Int) -> UInt32 {
            let i = header.count + (y * 640 + x) * 3
            return 0xff00_0000 | UInt32(picture[i]) << 16 | UInt32(picture[i + 1]) << 8 | UInt32(picture[i + 2])
        }
        func probeColour(_ name: String) -> UInt32 { // wl-probe's palette (main.swift)
            let palette: [UInt32] = [
                0xff4e_79a7, 0xfff2_8e2b, 0xff59_a14f, 0xffe1_5759, 0xff76_b7b2, 0xffed_c948, 0xffb0_7aa1,
            ]
            return palette[Int(name.utf8.reduce(0) { ($0 &* 31 &+ UInt32($1)) % 7 })]
        }
        let background: UInt32 = 0xff20_2830
        #expect(pixel(20, 20) == probeColour("left"))
        #expect(pixel(219, 119) == probeColour("left"))
        #expect(pixel(340, 20) == probeColour("right"))
        #expect(pixel(539, 119) == probeColour("right"))
        for (x, y) in [(19, 20), (220, 50), (339, 20), (540, 50), (100, 120), (320, 300)] {
            #expect(pixel(x, y) == background, "at \(x),\(y)")
        }
    }
}
