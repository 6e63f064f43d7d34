// wayland-info (Debian's wayland-utils) inside the headless ir-compositor: the registry a
// real client sees, every global with its version.
import Foundation
import Testing

@Suite struct WaylandInfoTests {
    @Test func waylandInfoListsEveryGlobalWithItsVersion() throws {
        let waylandInfo = "/usr/bin/wayland-info"
        try #require(
            FileManager.default.isExecutableFile(atPath: waylandInfo),
            "wayland-info is missing: make deps (wayland-utils)")
        // wayland-info maps no window: the replay starts after the compositor's 8 s wait,
        // long after wayland-info printed the registry and quit.
        let compositor = try CompositorProcess([
            "--socket", "ir-info-\(getpid())", "--speed", "0", "--exit-after-replay",
            "--input", "replay:\(recordingFixtures)/keyboard.yml", "--", waylandInfo,
        ])
        let text = compositor.readToExit()
        #expect(compositor.process.terminationStatus == 0)
        let global = try Regex(#"^client 1 \| interface: '(\w+)',\s+version:\s+(\d+)"#)
        let globals = try text.split(separator: "\n").compactMap { line -> String? in
            guard let m = try global.firstMatch(in: String(line)) else { return nil }
            return "\(m.output[1].substring!) \(m.output[2].substring!)"
        }
        #expect(
            globals == [
                "wl_shm 1", // libwayland's own (wl_display_init_shm)
                "wl_compositor 5", "wl_subcompositor 1", "wl_output 4", "zxdg_output_manager_v1 3", "wl_seat 8",
                "wl_data_device_manager 3",
                "xdg_wm_base 5", "zxdg_decoration_manager_v1 1",
                "zwp_relative_pointer_manager_v1 1", "zwp_pointer_constraints_v1 1", "zwp_pointer_gestures_v1 3",
                "zwp_keyboard_shortcuts_inhibit_manager_v1 1", "zwp_tablet_manager_v2 1",
                "wp_cursor_shape_manager_v1 2", // cursors by name (CursorShape.swift)
                // Text input, activation, idle.
                "zwp_text_input_manager_v3 1", "xdg_activation_v1 1", "ext_idle_notifier_v1 1",
                "zwp_idle_inhibit_manager_v1 1",
                "zwp_primary_selection_device_manager_v1 1",
                // Panels, launchers and lock screens.
                "zwlr_layer_shell_v1 4",
                "zwp_input_method_manager_v2 1", // input method programs (InputMethod.swift)
                "ext_session_lock_manager_v1 1", // lock screens (SessionLock.swift)
                // Virtual keyboards.
                "zwp_virtual_keyboard_manager_v1 1",
                // Virtual input devices.
                "zwlr_virtual_pointer_manager_v1 2",
            ], "\(text)")
    }
}
