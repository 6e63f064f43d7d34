// The per-device settings a user of a desktop expects to change, applied when libinput
// announces a device, and only where the device supports them (libinput's
// `libinput_device_config_*_is_available`, `tap_get_finger_count`, `has_natural_scroll`).
// `nil` leaves libinput's own default in place. Deciding (pure, tested without a device)
// is kept apart from applying (C calls, in DeviceConfigurator).

import CLibinput

/// How pointer acceleration responds to speed (`libinput_config_accel_profile`).
public enum AccelerationProfile: String, Sendable, Hashable {
    /// libinput's default: faster movement moves the pointer further.
    case adaptive
    /// A constant factor (from `speed`), what gamers and many mouse users prefer.
    case flat
}

/// The device settings a user chooses (tapping, scrolling, acceleration, handedness), applied
/// to each device as it appears. Each nil keeps libinput's own default; not read per event.
public struct DeviceConfiguration: Sendable, Hashable {
    /// Tap-to-click on touchpads. Default on (libinput's own default is off; GNOME and
    /// KDE turn it on, and a compositor user expects a tap to click).
    public var tapToClick: Bool?
    /// Natural ("reverse") scrolling on devices that offer it. Default: libinput's (off).
    public var naturalScrolling: Bool?
    /// Default: libinput's (adaptive on most devices).
    public var accelerationProfile: AccelerationProfile?
    /// Pointer speed in -1...1. Default: libinput's (0). Out-of-range values are clamped.
    public var accelerationSpeed: Double?
    /// Swap the primary and secondary buttons. Default: libinput's (off).
    public var leftHanded: Bool?
    /// Ignore the touchpad while typing. Default: libinput's (on).
    public var disableWhileTyping: Bool?

    /// Every setting at libinput's default except tap-to-click, which is on.
    public init(
        tapToClick: Bool? = true, naturalScrolling: Bool? = nil,
        accelerationProfile: AccelerationProfile? = nil, accelerationSpeed: Double? = nil,
        leftHanded: Bool? = nil, disableWhileTyping: Bool? = nil
    ) {
        self.tapToClick = tapToClick
        self.naturalScrolling = naturalScrolling
        self.accelerationProfile = accelerationProfile
        self.accelerationSpeed = accelerationSpeed
        self.leftHanded = leftHanded
        self.disableWhileTyping = disableWhileTyping
    }

    /// libinput's defaults everywhere: nothing is changed on any device.
    public static let libinputDefaults = DeviceConfiguration(tapToClick: nil)
}

/// What a device lets a caller configure, as libinput reports it.
public struct ConfigurationSupport: Sendable, Hashable {
    /// Fingers a tap can click with (`tap_get_finger_count`); 0: the device cannot tap.
    public var tapFingerCount: Int32 = 0
    /// Whether natural scrolling can be turned on (`has_natural_scroll`).
    public var naturalScrolling = false
    /// Whether the pointer speed can be set (`accel_is_available`).
    public var acceleration = false
    /// Whether the adaptive profile is offered (`accel_get_profiles`).
    public var adaptiveProfile = false
    /// Whether the flat profile is offered (`accel_get_profiles`).
    public var flatProfile = false
    /// Whether the buttons can be swapped (`left_handed_is_available`).
    public var leftHanded = false
    /// Whether disable-while-typing exists (`dwt_is_available`).
    public var disableWhileTyping = false
    /// A device that supports nothing; the source fills in what libinput reports.
    public init() {}
}

/// One setting to apply to one device.
public enum ConfigurationStep: Sendable, Hashable, CustomStringConvertible {
    case tapToClick(Bool)
    case naturalScrolling(Bool)
    case accelerationProfile(AccelerationProfile)
    case accelerationSpeed(Double)
    case leftHanded(Bool)
    case disableWhileTyping(Bool)

    /// The setting as the log says it could not be applied ("tap-to-click on").
    public var description: String {
        switch self {
        case .tapToClick(let on): "tap-to-click \(on ? "on" : "off")"
        case .naturalScrolling(let on): "natural scrolling \(on ? "on" : "off")"
        case .accelerationProfile(let p): "acceleration profile \(p.rawValue)"
        case .accelerationSpeed(let s): "acceleration speed \(s)"
        case .leftHanded(let on): "left-handed \(on ? "on" : "off")"
        case .disableWhileTyping(let on): "disable-while-typing \(on ? "on" : "off")"
        }
    }
}

extension DeviceConfiguration {
    /// The settings to apply to a device that supports `support`, in a fixed order. A
    /// setting the device does not offer is left out (it is not an error: a keyboard has
    /// no tapping). A non-finite speed is left out; a finite one is clamped to -1...1.
    public func steps(for support: ConfigurationSupport) -> [ConfigurationStep] {
        var steps: [ConfigurationStep] = []
        if let tapToClick, support.tapFingerCount > 0 { steps.append(.tapToClick(tapToClick)) }
        if let naturalScrolling, support.naturalScrolling { steps.append(.naturalScrolling(naturalScrolling)) }
        if let accelerationProfile, support.acceleration {
            let offered = accelerationProfile == .flat ? support.flatProfile : support.adaptiveProfile
            if offered { steps.append(.accelerationProfile(accelerationProfile)) }
        }
        if let accelerationSpeed, support.acceleration, accelerationSpeed.isFinite {
            steps.append(.accelerationSpeed(min(1, max(-1, accelerationSpeed))))
        }
        if let leftHanded, support.leftHanded { steps.append(.leftHanded(leftHanded)) }
        if let disableWhileTyping, support.disableWhileTyping { steps.append(.disableWhileTyping(disableWhileTyping)) }
        return steps
    }
}

/// The C side: reads a device's support and applies steps, logging each outcome.
enum DeviceConfigurator {
    static func support(of device: OpaquePointer) -> ConfigurationSupport {
        var support = ConfigurationSupport()
        support.tapFingerCount = libinput_device_config_tap_get_finger_count(device)
        support.naturalScrolling = libinput_device_config_scroll_has_natural_scroll(device) != 0
        support.acceleration = libinput_device_config_accel_is_available(device) != 0
        let profiles = libinput_device_config_accel_get_profiles(device)
        support.adaptiveProfile = profiles & LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE.rawValue != 0
        support.flatProfile = profiles & LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT.rawValue != 0
        support.leftHanded = libinput_device_config_left_handed_is_available(device) != 0
        support.disableWhileTyping = libinput_device_config_dwt_is_available(device) != 0
        return support
    }

    /// Applies the steps; returns the ones libinput refused, with its reason.
    static func apply(_ steps: [ConfigurationStep], to device: OpaquePointer) -> [(ConfigurationStep, String)] {
        var failures: [(ConfigurationStep, String)] = []
        for step in steps {
            let status: libinput_config_status
            switch step {
            case .tapToClick(let on):
                status = libinput_device_config_tap_set_enabled(
                    device, on ? LIBINPUT_CONFIG_TAP_ENABLED : LIBINPUT_CONFIG_TAP_DISABLED)
            case .naturalScrolling(let on):
                status = libinput_device_config_scroll_set_natural_scroll_enabled(device, on ? 1 : 0)
            case .accelerationProfile(let profile):
                status = libinput_device_config_accel_set_profile(
                    device,
                    profile == .flat ? LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT : LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE)
            case .accelerationSpeed(let speed):
                status = libinput_device_config_accel_set_speed(device, speed)
            case .leftHanded(let on):
                status = libinput_device_config_left_handed_set(device, on ? 1 : 0)
            case .disableWhileTyping(let on):
                status = libinput_device_config_dwt_set_enabled(
                    device, on ? LIBINPUT_CONFIG_DWT_ENABLED : LIBINPUT_CONFIG_DWT_DISABLED)
            }
            if status != LIBINPUT_CONFIG_STATUS_SUCCESS {
                failures.append((step, String(cString: libinput_config_status_to_str(status))))
            }
        }
        return failures
    }
}
