import CXKBCommon
import Foundation
import InputRouter
import Testing

@testable import InputRouterKeyboard

/// `KeyboardState.translate` skips xkbcommon for keys that provably change nothing and
/// remembers keysyms between state changes. Held against a plain `xkb_state` fed every
/// key, on long random sequences over every keycode of keymaps with shifts, locks,
/// latches and layout switches, it must answer the same after every single transition.
struct XKBDifferentialTests {
    /// The keymaps: names, or xkb text.
    enum Source: CustomStringConvertible, Sendable {
        case names(String, variant: String = "", options: String = "")
        case text(String, name: String)
        var description: String {
            switch self {
            case .names(let layout, let variant, let options): return "\(layout)(\(variant)) [\(options)]"
            case .text(_, let name): return name
            }
        }
        func keymap(_ context: XKBContext) throws -> Keymap {
            switch self {
            case .names(let layout, let variant, let options):
                return try Keymap(
                    context: context, names: RuleNames(layout: layout, variant: variant, options: options))
            case .text(let text, _):
                return try Keymap(context: context, string: text)
            }
        }
    }

    static let sources: [Source] = [
        .names("us"),
        .names("de"),
        // Level3 and Level5 shifts, and a Level5 lock.
        .names("de", variant: "neo"),
        // A Level3 latch on a digit key, and AltGr.
        .names("fr", variant: "dvorak", options: "lv3:ralt_switch"),
        .names("us,ru", options: "grp:alt_shift_toggle,compose:ralt"),
        .names("us,de", options: "grp:shift_caps_toggle,grp_led:scroll,lv3:caps_switch_latch"),
        .text(handWritten, name: "hand-written keymap"),
        .text(handWrittenWithoutLatches, name: "hand-written keymap without latches"),
    ]

    /// Sticky keys (LatchMods with clearLocks and latchToLock), a SetMods with
    /// clearLocks, a LockMods, layout latch, set and lock (relative, absolute, by zero), a SetMods of no
    /// modifier and a MovePtr (inert to the masks, but they keep a latch), and a key whose
    /// action is only on its second level, over two layouts.
    static let handWritten = """
        xkb_keymap {
            xkb_keycodes { include "evdev+aliases(qwerty)" };
            xkb_types { include "complete" };
            xkb_compat { include "complete" };
            xkb_symbols {
                include "pc+us+ru:2+inet(evdev)"
                key <LFSH> { [ Shift_L ], actions[Group1] = [ LatchMods(modifiers=Shift,clearLocks,latchToLock) ] };
                key <LCTL> { [ Control_L ], actions[Group1] = [ LatchMods(modifiers=Control) ] };
                key <RCTL> { [ Control_R ], actions[Group1] = [ LockMods(modifiers=Control) ] };
                key <RTSH> { [ Shift_R ], actions[Group1] = [ SetMods(modifiers=Shift,clearLocks) ] };
                key <LALT> { symbols[Group1] = [ Alt_L ], symbols[Group2] = [ Alt_L ],
                             actions[Group1] = [ LatchGroup(group=+1) ], actions[Group2] = [ LatchGroup(group=+1) ] };
                key <MENU> { [ Menu ], actions[Group1] = [ SetGroup(group=+1,clearLocks) ] };
                key <RWIN> { [ Super_R ], actions[Group1] = [ LockGroup(group=+1) ] };
                key <LWIN> { [ Super_L ], actions[Group1] = [ SetGroup(group=1) ] };
                key <SCLK> { [ Scroll_Lock ], actions[Group1] = [ SetMods(modifiers=none) ] };
                key <END> { [ End ], [ End ], actions[Group1] = [ SetGroup(group=+0) ], actions[Group2] = [ SetGroup(group=+0) ] };
                key <PAUS> { [ Pause ], actions[Group1] = [ MovePtr(x=1,y=1) ] };
                key <INS> { type = "TWO_LEVEL", [ Insert, Insert ],
                            actions[Group1] = [ NoAction(), LockMods(modifiers=Mod5) ] };
            };
        };
        """

    /// The same without latch keys: no key has to prove it ends a latch, so a key whose
    /// action shows only when the layout moves while it is held rests on the probe alone.
    static let handWrittenWithoutLatches =
        handWritten
        .replacingOccurrences(of: "LatchMods(modifiers=Shift,clearLocks,latchToLock)", with: "SetMods(modifiers=Shift)")
        .replacingOccurrences(of: "LatchMods(modifiers=Control)", with: "SetMods(modifiers=Control)")
        .replacingOccurrences(of: "LatchGroup(group=+1)", with: "SetGroup(group=+1)")

    /// The plain xkbcommon side: a state fed every transition, read directly.
    final class Reference {
        let keymap: OpaquePointer
        var state: OpaquePointer
        let compose: ComposeState?

        init(_ keymap: Keymap, compose: ComposeTable?) {
            self.keymap = keymap.pointer
            state = xkb_state_new(keymap.pointer)
            // xkbcommon derives the LEDs on a state's first update; KeyboardState does so
            // when it is made, so both start derived.
            xkb_state_update_mask(state, 0, 0, 0, 0, 0, 0)
            self.compose = compose.map(ComposeState.init(table:))
        }
        deinit { xkb_state_unref(state) }

        func translate(key: UInt32, state direction: KeyState) -> KeyMeaning {
            let code = key &+ 8
            let keysym = xkb_state_key_get_one_sym(state, code)
            let layout = xkb_state_key_get_layout(state, code)
            var base: UInt32 = 0
            if layout != XKB_LAYOUT_INVALID {
                var syms: UnsafePointer<xkb_keysym_t>?
                if xkb_keymap_key_get_syms_by_level(keymap, code, layout, 0, &syms) > 0, let syms { base = syms[0] }
            }
            var step = ComposeStep.none
            if direction == .pressed, let compose, keysym != 0 { step = compose.feedStep(keysym) }
            xkb_state_update_key(state, code, direction == .pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
            return KeyMeaning(keysym: keysym, baseKeysym: base, modifiers: modifiers, compose: step)
        }

        var modifiers: Modifiers {
            Modifiers(
                depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
                latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
                locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
                group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
        }

        func releaseAll() {
            let mods = xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED)
            let layout = xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_LOCKED)
            xkb_state_unref(state)
            state = xkb_state_new(keymap)
            xkb_state_update_mask(state, 0, 0, mods, 0, 0, layout)
            compose?.reset()
        }

        func adopt(_ m: Modifiers) { xkb_state_update_mask(state, m.depressed, m.latched, m.locked, 0, 0, m.group) }
    }

    /// SplitMix64: the same sequence on every run and machine.
    struct Random {
        var seed: UInt64
        mutating func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D1_049B_D311_49EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Runs `steps` random transitions through both sides; returns the first difference,
    /// described, or nil.
    /// `focus`: keys pressed more often still (the latch keys, and a key under test).
    /// `answers`: as the seat does, a key the translator's `keyAnswers` hold is answered from
    /// them, and `translate` is not called (with `broken`, answers checked less than they must be).
    static func firstDifference(
        _ keymap: Keymap, classes: KeyClasses? = nil, compose: ComposeTable? = nil,
        focus: [UInt32] = [], steps: Int, seed: UInt64, answers: Bool = false,
        broken: BrokenAnswers? = nil
    ) -> String? {
        let ours =
            classes.map { KeyboardState(keymap: keymap, compose: compose, classes: $0) }
            ?? KeyboardState(keymap: keymap, compose: compose)
        let reference = Reference(keymap, compose: compose)
        let minCode = xkb_keymap_min_keycode(keymap.pointer)
        let maxCode = xkb_keymap_max_keycode(keymap.pointer)
        // Every keycode of the keymap as an evdev code, plus two it does not have.
        let allKeys = (minCode...maxCode).map { $0 - 8 } + [maxCode + 100, 0x2ff]
        // Keys the layout binds come up more often, keys with actions (by the keymap's own
        // classes, whatever `classes` says) most often, or their combinations would be rare.
        let boundKeys = allKeys.filter { xkb_keymap_num_layouts_for_key(keymap.pointer, $0 &+ 8) > 0 }
        let real = keymap.keyClasses
        let actionKeys = boundKeys.filter { real.classes[Int($0 + 8 - real.minKeycode)] != KeyClasses.inert }
        let focus = focus + boundKeys.filter { real.classes[Int($0 + 8 - real.minKeycode)] == KeyClasses.latch }
        let leds = StateComponents.ledIndices(of: keymap.pointer)
        var random = Random(seed: seed)
        var down: [UInt32] = []
        for step in 0..<steps {
            let roll = random.below(100)
            var key: UInt32
            var direction: KeyState
            if roll < 2 {
                // The device vanished, or the parent compositor set the masks.
                if random.below(2) == 0 {
                    _ = ours.releaseAll()
                    reference.releaseAll()
                    down.removeAll()
                } else {
                    let m = Modifiers(
                        depressed: UInt32(random.below(256)), latched: UInt32(random.below(4)),
                        locked: UInt32(random.below(4)), group: UInt32(random.below(3)))
                    ours.adoptModifiers(m)
                    reference.adopt(m)
                }
                let a = StateComponents(ours.pointer, keymap: keymap.pointer, leds: leds)
                let b = StateComponents(reference.state, keymap: keymap.pointer, leds: leds)
                if a != b { return "step \(step) (reset): state \(a), xkbcommon \(b)" }
                continue
            } else if roll < 5 {
                // A second press of a held key, or a release of a key that is up.
                if !down.isEmpty && random.below(2) == 0 {
                    // Held twice: it is released twice too.
                    key = down[random.below(down.count)]
                    direction = .pressed
                    down.append(key)
                } else {
                    key = boundKeys[random.below(boundKeys.count)]
                    direction = .released
                }
            } else if !down.isEmpty && (roll < 45 || down.count > 3) {
                let index = random.below(down.count)
                key = down.remove(at: index)
                direction = .released
            } else {
                let pool =
                    roll < 20 && !focus.isEmpty ? focus : roll < 60 ? actionKeys : roll < 95 ? boundKeys : allKeys
                key = pool.isEmpty ? allKeys[random.below(allKeys.count)] : pool[random.below(pool.count)]
                direction = .pressed
                down.append(key)
            }
            let expected = reference.translate(key: key, state: direction)
            let answered = answers ? Self.answer(ours.keyAnswers, key: key, state: direction, broken: broken) : nil
            let got = answered ?? ours.translate(key: key, state: direction)
            let a = StateComponents(ours.pointer, keymap: keymap.pointer, leds: leds)
            let b = StateComponents(reference.state, keymap: keymap.pointer, leds: leds)
            if got != expected || a != b || ours.modifiers != reference.modifiers {
                return "step \(step): key \(key) \(direction): translate \(got), xkbcommon \(expected); "
                    + "state \(a), xkbcommon \(b)"
            }
        }
        return nil
    }

    @Test(arguments: sources)
    func translateIsPlainXKBCommon(_ source: Source) throws {
        let context = try XKBContext()
        let keymap = try source.keymap(context)
        for seed: UInt64 in [1, 2] {
            let difference = Self.firstDifference(keymap, steps: 3000, seed: seed)
            #expect(difference == nil, "\(source), seed \(seed): \(difference ?? "")")
        }
    }

    /// The seat's way: keys the answers hold skip `translate`, the rest call it.
    @Test(arguments: sources)
    func answersAndTranslateArePlainXKBCommon(_ source: Source) throws {
        let context = try XKBContext()
        let keymap = try source.keymap(context)
        for seed: UInt64 in [3, 4] {
            let difference = Self.firstDifference(keymap, steps: 3000, seed: seed, answers: true)
            #expect(difference == nil, "\(source), seed \(seed): \(difference ?? "")")
        }
    }

    @Test func withCompose() throws {
        let context = try XKBContext()
        let keymap = try Keymap(context: context, names: RuleNames(layout: "us", options: "compose:ralt"))
        let table = try ComposeTable(context: context, locale: "en_US.UTF-8")
        for answers in [false, true] {
            let difference = Self.firstDifference(keymap, compose: table, steps: 4000, seed: 7, answers: answers)
            #expect(difference == nil, "answers \(answers): \(difference ?? "")")
        }
    }

    /// A check the seat's answers leave out.
    enum BrokenAnswers: CaseIterable { case generation, inert, pending, compose }

    /// `KeyAnswers.meaning`, or with one of its checks left out.
    static func answer(_ answers: KeyAnswers?, key: UInt32, state direction: KeyState, broken: BrokenAnswers?)
        -> KeyMeaning?
    {
        guard let answers else { return nil }
        guard let broken else { return answers.meaning(key: key, state: direction) }
        let index = Int(key) - answers.firstKey
        guard index >= 0, index < answers.count else { return nil }
        let k = (answers.keys + index * answers.stride).load(as: KeyAnswers.Key.self)
        let s = answers.state.pointee
        guard k.generation == s.generation || broken == .generation, k.inert || broken == .inert,
            s.inertKeysChangeNothing || broken == .pending,
            direction == .released || !s.feedsPresses || broken == .compose
        else { return nil }
        return KeyMeaning(keysym: k.keysym, baseKeysym: k.baseKeysym, modifiers: s.modifiers)
    }

    /// Two Shift keys that clear locks when released alone, and a Shift lock.
    static let clearingShifts = """
        xkb_keymap {
            xkb_keycodes { include "evdev+aliases(qwerty)" };
            xkb_types { include "complete" };
            xkb_compat { include "complete" };
            xkb_symbols {
                include "pc+us+inet(evdev)"
                key <LFSH> { [ Shift_L ], actions[Group1] = [ SetMods(modifiers=Shift,clearLocks) ] };
                key <RTSH> { [ Shift_R ], actions[Group1] = [ SetMods(modifiers=Shift,clearLocks) ] };
                key <CAPS> { [ Caps_Lock ], actions[Group1] = [ LockMods(modifiers=Shift) ] };
            };
        };
        """

    /// Whether `keys` leave the two sides apart at some step (answers as the seat reads them).
    static func sequenceDiffers(_ keymap: Keymap, _ keys: [(UInt32, KeyState)], broken: BrokenAnswers?) -> Bool {
        let ours = KeyboardState(keymap: keymap)
        let reference = Reference(keymap, compose: nil)
        for (key, direction) in keys {
            let expected = reference.translate(key: key, state: direction)
            let got =
                answer(ours.keyAnswers, key: key, state: direction, broken: broken)
                ?? ours.translate(key: key, state: direction)
            if got != expected
                || StateComponents(ours.pointer, keymap: keymap.pointer)
                    != StateComponents(reference.state, keymap: keymap.pointer)
            {
                return true
            }
        }
        return false
    }

    /// An inert key pressed while an action key is held must reach xkbcommon even when that
    /// key's press changed no mask (the generation stayed): a second Shift held with the
    /// first changes nothing, and a key typed meanwhile keeps its release from clearing the
    /// Shift lock.
    @Test func anInertKeyWhileAnActionKeyIsHeldIsFed() throws {
        let keymap = try Keymap(context: XKBContext(), string: Self.clearingShifts)
        let caps: UInt32 = 58
        let left: UInt32 = 42
        let right: UInt32 = 54
        let a: UInt32 = 30
        let keys: [(UInt32, KeyState)] = [
            (caps, .pressed), (caps, .released), (left, .pressed),
            (a, .pressed), (a, .released), (right, .pressed), (a, .pressed),
            (a, .released), (right, .released), (left, .released),
        ]
        #expect(!Self.sequenceDiffers(keymap, keys, broken: nil))
        #expect(Self.sequenceDiffers(keymap, keys, broken: .pending))
    }

    /// Each of the answers' other checks matters: left out, the differences show.
    @Test(arguments: [BrokenAnswers.generation, .inert, .compose])
    func aBrokenAnswerIsCaught(_ broken: BrokenAnswers) throws {
        let context = try XKBContext()
        let keymap: Keymap
        let compose: ComposeTable?
        if broken == .compose {
            keymap = try Keymap(context: context, names: RuleNames(layout: "us", options: "compose:ralt"))
            compose = try ComposeTable(context: context, locale: "en_US.UTF-8")
        } else {
            keymap = try Source.text(Self.handWritten, name: "hand-written keymap").keymap(context)
            compose = nil
        }
        // Plain keys (a, e, the apostrophe) and the compose key often, or answered keys
        // would rarely meet a pending latch, a held action or a sequence in progress.
        let focus: [UInt32] = [30, 18, 40, 100, 30, 18]
        let caught = (UInt64(1)...6).filter { seed in
            #expect(
                Self.firstDifference(keymap, compose: compose, focus: focus, steps: 3000, seed: seed, answers: true)
                    == nil)
            return Self.firstDifference(
                keymap, compose: compose, focus: focus, steps: 3000, seed: seed, answers: true,
                broken: broken) != nil
        }
        #expect(!caught.isEmpty)
    }

    /// The probe's verdicts on keys whose class is known.
    @Test func classes() throws {
        let context = try XKBContext()
        let keymap = try Source.text(Self.handWritten, name: "hand-written keymap").keymap(context)
        func of(_ name: String, in keymap: Keymap = keymap) -> UInt8 {
            let classes = keymap.keyClasses
            return classes.classes[Int(xkb_keymap_key_by_name(keymap.pointer, name) - classes.minKeycode)]
        }
        let withoutLatches = try Source.text(Self.handWrittenWithoutLatches, name: "").keymap(context)
        #expect(!withoutLatches.keyClasses.classes.contains(KeyClasses.latch))
        #expect(of("END", in: withoutLatches) == KeyClasses.action)
        #expect(of("LWIN", in: withoutLatches) == KeyClasses.action)
        #expect(of("AC01", in: withoutLatches) == KeyClasses.inert)
        // With no latch to keep, a SetMods of nothing changes nothing ever.
        #expect(of("SCLK", in: withoutLatches) == KeyClasses.inert)
        #expect(of("LFSH") == KeyClasses.latch)
        #expect(of("RCTL") == KeyClasses.action)
        #expect(of("MENU") == KeyClasses.action)
        #expect(of("LWIN") == KeyClasses.action)
        // No change while held; on release it restores the depressed layout it found.
        #expect(of("END") == KeyClasses.action)
        #expect(of("INS") == KeyClasses.action)
        // No change to any mask, but they keep a pending latch, which a plain key ends.
        #expect(of("SCLK") == KeyClasses.action)
        #expect(of("PAUS") == KeyClasses.action)
        #expect(of("AC01") == KeyClasses.inert)
        #expect(of("SPCE") == KeyClasses.inert)
        let us = try Keymap(context: context, names: RuleNames(layout: "us"))
        let usClasses = us.keyClasses
        let inert = usClasses.classes.filter { $0 == KeyClasses.inert }.count
        // Most keys of a plain layout skip xkbcommon; Shift, Ctrl, Alt, locks do not.
        #expect(inert > usClasses.classes.count / 2)
        #expect(!usClasses.classes.contains(KeyClasses.latch))
        for name in ["LFSH", "RTSH", "LCTL", "LALT", "RALT", "LWIN", "CAPS", "NMLK"] {
            #expect(of(name, in: us) != KeyClasses.inert, "\(name)")
        }
        for name in ["AC01", "AE01", "SPCE", "RTRN", "FK01", "UP"] {
            #expect(of(name, in: us) == KeyClasses.inert, "\(name)")
        }
    }

    /// The test catches a wrong skip: with the latch keys (or the action keys) called
    /// inert, the differences show within the sequence.
    @Test func aWrongClassificationIsCaught() throws {
        let context = try XKBContext()
        for source in [
            Source.text(Self.handWritten, name: "hand-written keymap"),
            .names("fr", variant: "dvorak", options: "lv3:ralt_switch"),
            .names("us,de", options: "grp:shift_caps_toggle,lv3:caps_switch_latch"),
        ] {
            let keymap = try source.keymap(context)
            let real = keymap.keyClasses
            #expect(real.classes.contains(KeyClasses.latch), "\(source)")
            let latchAsInert = KeyClasses(
                minKeycode: real.minKeycode,
                classes: real.classes.map { $0 == KeyClasses.latch ? KeyClasses.inert : $0 })
            #expect(Self.firstDifference(keymap, classes: latchAsInert, steps: 4000, seed: 1) != nil, "\(source)")
        }
        // Key by key: each action key of the hand-written keymap, alone called inert, is caught.
        let keymap = try Source.text(Self.handWritten, name: "hand-written keymap").keymap(context)
        let real = keymap.keyClasses
        for name in ["LFSH", "LCTL", "RCTL", "MENU", "RWIN", "LWIN", "END", "SCLK", "PAUS", "INS", "CAPS"] {
            var classes = real.classes
            let code = xkb_keymap_key_by_name(keymap.pointer, name)
            classes[Int(code - real.minKeycode)] = KeyClasses.inert
            let broken = KeyClasses(minKeycode: real.minKeycode, classes: classes)
            let caught = (1...4).contains {
                Self.firstDifference(keymap, classes: broken, focus: [code - 8], steps: 4000, seed: $0) != nil
            }
            #expect(caught, "\(name) called inert")
        }
    }
}
