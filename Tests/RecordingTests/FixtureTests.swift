// The generated fixtures (recorded by real libinput 1.22 from scripted uinput devices):
// event counts from the fixtures README table and golden renderings of their start.

import InputRouter
import Testing

@testable import InputRouterRecording

@Suite struct FixtureTests {
    func read(_ name: String) throws -> Recording { try RecordingReader.read(path: Paths.fixture(name)) }

    @Test func keyboardCounts() throws {
        let recording = try read("keyboard.yml")
        var expected = Counts()
        expected.added = 1
        expected.keys = 40
        #expect(Counts(recording.events) == expected)
        #expect(recording.warnings.isEmpty)
    }

    @Test func mouseCountsIncludeHiResPartialSteps() throws {
        let recording = try read("mouse.yml")
        // 9 legacy POINTER_AXIS plus 10 partial hi-res steps that libinput 1.22 did not print.
        var expected = Counts()
        expected.added = 1
        expected.motion = 67
        expected.buttons = 8
        expected.axis = 19
        #expect(Counts(recording.events) == expected)
    }

    @Test func touchscreenCounts() throws {
        var expected = Counts()
        expected.added = 1
        expected.touchDown = 4
        expected.touchMotion = 115
        expected.touchUp = 4
        expected.touchFrame = 96
        #expect(Counts(try read("touchscreen.yml").events) == expected)
    }

    @Test func switchCounts() throws {
        var expected = Counts()
        expected.added = 1
        expected.switches = 4
        #expect(Counts(try read("switches.yml").events) == expected)
    }

    @Test func touchpadCounts() throws {
        var expected = Counts()
        expected.added = 1
        expected.motion = 29
        expected.buttons = 2
        expected.axis = 39
        expected.gestures = 52
        #expect(Counts(try read("touchpad.yml").events) == expected)
    }

    @Test func multiDeviceCountsAndMerge() throws {
        let recording = try read("multi.yml")
        var expected = Counts()
        expected.added = 2
        expected.motion = 39
        expected.buttons = 4
        expected.axis = 2
        expected.keys = 14
        #expect(Counts(recording.events) == expected)
        #expect(recording.devices.map(\.id) == [DeviceID(0), DeviceID(1)])
        // Merged by time: never decreasing in this file.
        #expect(zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test func goldenKeyboard() throws {
        #expect(
            render(try read("keyboard.yml").events, first: 6) == """
                0.000000 dev0 added [keyboard]
                0.000000 dev0 key 42 pressed
                0.099060 dev0 key 35 pressed
                0.196543 dev0 key 35 released
                0.263159 dev0 key 42 released
                0.367133 dev0 key 18 pressed
                """)
    }

    @Test func goldenMouseWheel() throws {
        let axes = try read("mouse.yml").events.filter {
            if case .pointerAxis = $0.kind { return true } else { return false }
        }
        #expect(
            render(axes, first: 19) == """
                2.634943 dev0 axis wheel v 15.00/120 h -
                2.671258 dev0 axis wheel v 15.00/120 h -
                2.722172 dev0 axis wheel v 15.00/120 h -
                3.050799 dev0 axis wheel v -15.00/-120 h -
                3.104676 dev0 axis wheel v -15.00/-120 h -
                3.442088 dev0 axis wheel v -3.75/-30 h -
                3.455167 dev0 axis wheel v -3.75/-30 h -
                3.465309 dev0 axis wheel v -3.75/-30 h -
                3.475116 dev0 axis wheel v -3.75/-30 h -
                3.485533 dev0 axis wheel v -3.75/-30 h -
                3.496455 dev0 axis wheel v -3.75/-30 h -
                3.808422 dev0 axis wheel v 7.50/60 h -
                3.822841 dev0 axis wheel v 7.50/60 h -
                3.840229 dev0 axis wheel v 7.50/60 h -
                4.088557 dev0 axis wheel v - h 15.00/120
                4.173797 dev0 axis wheel v - h -3.75/-30
                4.188833 dev0 axis wheel v - h -3.75/-30
                4.202999 dev0 axis wheel v - h -3.75/-30
                4.218322 dev0 axis wheel v - h -3.75/-30
                """)
    }

    @Test func goldenMouseStart() throws {
        #expect(
            render(try read("mouse.yml").events, first: 4) == """
                0.000000 dev0 added [pointer]
                0.000000 dev0 motion 0.30 0.00 unaccel 1.00 0.00
                0.017009 dev0 motion 1.72 0.86 unaccel 2.00 1.00
                0.028826 dev0 motion 3.00 1.00 unaccel 3.00 1.00
                """)
    }

    @Test func goldenTouchscreen() throws {
        let events = try read("touchscreen.yml").events
        #expect(
            render(events, first: 5) == """
                0.000000 dev0 added [touch]
                0.000000 dev0 touch-down 0 0.2954 0.3494
                0.000000 dev0 touch-frame
                0.013262 dev0 touch-motion 0 0.2957 0.3494
                0.013262 dev0 touch-frame
                """)
        let downsAndUps = events.filter {
            switch $0.kind {
            case .touchDown, .touchUp: return true
            default: return false
            }
        }
        #expect(
            render(downsAndUps, first: 8) == """
                0.000000 dev0 touch-down 0 0.2954 0.3494
                0.106135 dev0 touch-up 0
                0.578840 dev0 touch-down 0 0.2002 0.6597
                1.066336 dev0 touch-up 0
                1.551063 dev0 touch-down 0 0.3613 0.4383
                1.611580 dev0 touch-down 1 0.6177 0.5382
                1.928106 dev0 touch-up 0
                2.004926 dev0 touch-up 1
                """)
        // point 75.62 mm of a 4096 / 16 = 256 mm axis.
        if case .touchDown(_, let x, _) = events[1].kind {
            #expect(x == 75.62 / 256)
        } else {
            Issue.record("not a down")
        }
    }

    @Test func goldenTouchpadGestures() throws {
        let events = try read("touchpad.yml").events.filter {
            if case .gesture(let g) = $0.kind { return g.phase != .update } else { return false }
        }
        #expect(
            render(events, first: 4) == """
                2.769595 dev0 gesture swipe begin 3 0.00 0.00 scale 1.00 rotation 0.00
                3.099488 dev0 gesture swipe end 3 0.00 0.00 scale 1.00 rotation 0.00
                3.767751 dev0 gesture pinch begin 2 0.00 0.00 scale 1.00 rotation 0.00
                4.018871 dev0 gesture pinch end 2 0.00 0.00 scale 2.01 rotation 0.00
                """)
    }

    @Test func goldenSwitches() throws {
        #expect(
            render(try read("switches.yml").events, first: 5) == """
                0.000000 dev0 added [switch]
                0.000000 dev0 switch lid on
                0.731157 dev0 switch lid off
                1.392596 dev0 switch tabletMode on
                2.248010 dev0 switch tabletMode off
                """)
    }

    @Test func goldenMulti() throws {
        let events = try read("multi.yml").events
        #expect(
            render(events, first: 3) == """
                0.678714 dev1 added [pointer]
                0.678714 dev1 motion 0.62 0.31 unaccel 2.00 1.00
                0.696275 dev1 motion 4.44 2.66 unaccel 5.00 3.00
                """)
        #expect(events.first { $0.device == DeviceID(0) }.map(EventText.describe) == "1.091091 dev0 added [keyboard]")
    }

    @Test func deviceDescription() throws {
        let device = try #require(try read("touchscreen.yml").devices.first)
        #expect(device.name == "Synthetic Fixture Touchscreen")
        #expect(device.node == "/dev/input/event4")
        #expect(device.identity == DeviceIdentity(bus: 3, vendor: 4617, product: 3, version: 273))
        #expect(device.codes[3] == [0, 1, 47, 53, 54, 57])
        #expect(device.absinfo[53] == AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
        #expect(device.properties == [1])
        #expect(device.udevProperty("ID_INPUT_WIDTH_MM") == "255")
        #expect(device.quirks.isEmpty)
        #expect(device.libinputCapabilities == .touch)
        #expect(device.libinputSize == [256, 144])
        #expect(device.deviceClass == .touchscreen)
        #expect(device.hasLibinputEvents)
    }

    @Test(arguments: ["keyboard.yml", "mouse.yml", "touchscreen.yml", "touchpad.yml", "switches.yml", "multi.yml"])
    func fixturesReadWithoutWarnings(name: String) throws {
        let recording = try read(name)
        #expect(recording.warnings.isEmpty, "\(recording.warnings)")
        #expect(recording.devices.allSatisfy { $0.hasLibinputEvents })
    }

    @Test func deviceIDBaseOffsetsIDs() throws {
        let recording = try RecordingReader.read(path: Paths.fixture("multi.yml"), deviceIDBase: 10)
        #expect(Set(recording.events.map(\.device)) == [DeviceID(10), DeviceID(11)])
    }
}
