// How recorded coordinates become the core's 0...1 values. libinput prints touch and
// absolute pointer positions in millimetres from the axis minimum; dividing by the axis
// size in millimetres ((max - min + 1) / resolution, libinput's own notion of the range)
// gives the same value as (raw - min) / (max - min + 1). The result is clamped to 0...1:
// real devices report slightly out-of-range values and the core expects the unit square.

enum Normalisation {
    /// The device's size in mm along x and y for touch (MT axes first) or absolute pointer
    /// positions: from absinfo when present (exact), else from the `libinput: size` block
    /// (rounded to whole mm by libinput).
    static func size(of device: RecordedDevice, touch: Bool) -> (Double, Double)? {
        let xCodes = touch ? [ABS.mtPositionX, ABS.x] : [ABS.x, ABS.mtPositionX]
        let yCodes = touch ? [ABS.mtPositionY, ABS.y] : [ABS.y, ABS.mtPositionY]
        if let x = xCodes.lazy.compactMap({ device.absinfo[$0] }).first,
            let y = yCodes.lazy.compactMap({ device.absinfo[$0] }).first
        {
            return (x.sizeInMillimetres, y.sizeInMillimetres)
        }
        if let size = device.libinputSize, size.count == 2, size[0] > 0, size[1] > 0 { return (size[0], size[1]) }
        return nil
    }

    static func fromMillimetres(_ mm: Double, size: Double) -> Double {
        clamp(mm / size)
    }

    static func fromRaw(_ raw: Int32, _ info: AbsInfo) -> Double {
        clamp((Double(raw) - Double(info.minimum)) / info.range)
    }

    static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}
