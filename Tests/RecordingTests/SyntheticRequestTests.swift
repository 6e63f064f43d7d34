// The command-line form of a synthetic log, `SEED[,devices=KIND+KIND...][,frames=N]`
// (docs/recordings.md): what it names, its defaults, and the exact message for each way
// of getting it wrong.

import InputRouterRecording
import Testing

@Suite struct SyntheticRequestTests {
    @Test func aSeedAloneNamesEveryDeviceAndTwoHundredFrames() throws {
        let request = try SyntheticRequest(parsing: "42")
        #expect(
            request == SyntheticRequest(seed: 42, devices: [.keyboard, .mouse, .touchscreen, .switches], frames: 200))
        #expect(try SyntheticRequest(parsing: "18446744073709551615").seed == UInt64.max)
    }

    @Test func devicesAndFramesInEitherOrder() throws {
        let expected = SyntheticRequest(seed: 7, devices: [.touchscreen, .keyboard, .touchscreen], frames: 50)
        #expect(try SyntheticRequest(parsing: "7,devices=touchscreen+keyboard+touchscreen,frames=50") == expected)
        #expect(try SyntheticRequest(parsing: "7,frames=50,devices=touchscreen+keyboard+touchscreen") == expected)
        #expect(try SyntheticRequest(parsing: "0,frames=0").frames == 0)
        #expect(try SyntheticRequest(parsing: "1,frames=1000000").frames == 1_000_000)
    }

    @Test(arguments: [
        ("", "seed '' is not a decimal number from 0 to 18446744073709551615"),
        ("-1", "seed '-1' is not a decimal number from 0 to 18446744073709551615"),
        ("0x2a", "seed '0x2a' is not a decimal number from 0 to 18446744073709551615"),
        ("18446744073709551616", "seed '18446744073709551616' is not a decimal number from 0 to 18446744073709551615"),
        ("42,tablet", "'tablet' is not KEY=VALUE (devices=..., frames=N)"),
        ("42,devices=tablet", "unknown device 'tablet' (keyboard, mouse, touchscreen, switches; join several with +)"),
        ("42,devices=keyboard,mouse", "'mouse' is not KEY=VALUE (devices=..., frames=N)"),
        ("42,devices=", "unknown device '' (keyboard, mouse, touchscreen, switches; join several with +)"),
        ("42,frames=-5", "frames '-5' is not a whole number from 0 to 1000000"),
        ("42,frames=1000001", "frames '1000001' is not a whole number from 0 to 1000000"),
        ("42,frames=1,frames=2", "frames is given twice"),
        ("42,events=10", "unknown key 'events' (devices, frames)"),
    ])
    func mistakesAreNamed(text: String, message: String) {
        #expect(throws: SyntheticRequestError.self) { try SyntheticRequest(parsing: text) }
        do {
            _ = try SyntheticRequest(parsing: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func theRequestIsTheGeneratorItNames() throws {
        let generator = try SyntheticRequest(parsing: "9,devices=mouse+switches,frames=30").generator
        #expect(generator.seed == 9 && generator.devices == [.mouse, .switches] && generator.frames == 30)
    }
}
