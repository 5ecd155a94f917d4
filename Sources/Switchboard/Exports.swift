// The runtime's public vocabulary (requests, events, errors, the Provider protocol, the policies)
// lives in SwitchboardCore, which has no I/O; `import Switchboard` brings it along.
@_exported import SwitchboardCore
