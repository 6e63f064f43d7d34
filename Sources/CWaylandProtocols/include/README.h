/* CWaylandProtocols: the protocols of protocols/*.xml in C, generated at build time by the
 * WaylandProtocols plugin (Plugins/WaylandProtocols) with Debian's wayland-scanner: each
 * protocol's tables (*-protocol.c), its server and client headers, wayland-interfaces.h
 * and the module map (modules CWaylandProtocolsServer, CWaylandProtocolsClient, CWaylandInterfaces), all
 * in the plugin's output directory. SwiftPM wants this public headers directory to exist;
 * nothing here is compiled. */
