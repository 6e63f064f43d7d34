// Device settings: the defaults, and that a setting reaches only devices that offer it,
// over every combination of what a device supports.

import Testing

@testable import InputRouterLibinput

@Suite struct ConfigurationTests {
    @Test func defaults() {
        let c = DeviceConfiguration()
        #expect(c.tapToClick == true)
        #expect(c.naturalScrolling == nil && c.accelerationProfile == nil && c.accelerationSpeed == nil)
        #expect(c.leftHanded == nil && c.disableWhileTyping == nil)
        #expect(DeviceConfiguration.libinputDefaults.steps(for: Self.everything).isEmpty)
    }

    static let everything: ConfigurationSupport = {
        var s = ConfigurationSupport()
        s.tapFingerCount = 3
        s.naturalScrolling = true
        s.acceleration = true
        s.adaptiveProfile = true
        s.flatProfile = true
        s.leftHanded = true
        s.disableWhileTyping = true
        return s
    }()

    @Test func aTouchpadThatOffersEverythingGetsEverything() {
        let c = DeviceConfiguration(
            tapToClick: true, naturalScrolling: true, accelerationProfile: .flat,
            accelerationSpeed: 0.5, leftHanded: true, disableWhileTyping: false)
        #expect(
            c.steps(for: Self.everything) == [
                .tapToClick(true), .naturalScrolling(true), .accelerationProfile(.flat), .accelerationSpeed(0.5),
                .leftHanded(true), .disableWhileTyping(false),
            ])
        #expect(
            c.steps(for: Self.everything).map(\.description) == [
                "tap-to-click on", "natural scrolling on", "acceleration profile flat", "acceleration speed 0.5",
                "left-handed on", "disable-while-typing off",
            ])
    }

    /// Every combination of the seven support flags: each step appears exactly when the
    /// device offers it and the user set it.
    @Test func onlyWhereSupported() {
        let configurations = [
            DeviceConfiguration(),
            DeviceConfiguration(
                tapToClick: false, naturalScrolling: false, accelerationProfile: .adaptive,
                accelerationSpeed: -0.25, leftHanded: false, disableWhileTyping: true),
            DeviceConfiguration(tapToClick: nil, naturalScrolling: true, accelerationProfile: .flat),
        ]
        for bits in 0..<(1 << 7) {
            var s = ConfigurationSupport()
            s.tapFingerCount = bits & 1 != 0 ? 2 : 0
            s.naturalScrolling = bits & 2 != 0
            s.acceleration = bits & 4 != 0
            s.adaptiveProfile = bits & 8 != 0
            s.flatProfile = bits & 16 != 0
            s.leftHanded = bits & 32 != 0
            s.disableWhileTyping = bits & 64 != 0
            for c in configurations {
                var expected: [ConfigurationStep] = []
                if let v = c.tapToClick, s.tapFingerCount > 0 { expected.append(.tapToClick(v)) }
                if let v = c.naturalScrolling, s.naturalScrolling { expected.append(.naturalScrolling(v)) }
                if let p = c.accelerationProfile, s.acceleration, p == .flat ? s.flatProfile : s.adaptiveProfile {
                    expected.append(.accelerationProfile(p))
                }
                if let v = c.accelerationSpeed, s.acceleration { expected.append(.accelerationSpeed(v)) }
                if let v = c.leftHanded, s.leftHanded { expected.append(.leftHanded(v)) }
                if let v = c.disableWhileTyping, s.disableWhileTyping { expected.append(.disableWhileTyping(v)) }
                #expect(c.steps(for: s) == expected, "support bits \(bits)")
            }
        }
    }

    @Test func speedIsClampedAndNonFiniteIsLeftOut() {
        for (speed, expected) in [(3.0, 1.0), (-7.0, -1.0), (0.3, 0.3)] {
            #expect(
                DeviceConfiguration(tapToClick: nil, accelerationSpeed: speed).steps(for: Self.everything)
                    == [.accelerationSpeed(expected)])
        }
        for speed in [Double.nan, .infinity, -.infinity] {
            #expect(DeviceConfiguration(tapToClick: nil, accelerationSpeed: speed).steps(for: Self.everything).isEmpty)
        }
    }
}
