/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * The robot body of the test VM, as the firmware of a robot describes one
 * (Documentation/dcm/bring-up.rst): scripts/dcm-vm --rs485-uart compiles
 * this SSDT with iasl and passes it to QEMU with -acpitable.
 *
 * RS48: QEMU's second UART (COM2) carries an RS485 line, a serdev device
 * matched through PRP0001 by the dcm RS485 transport (compatible
 * "aldebaran,nao-rs485"); dcm-boardsim plays its boards on the host.
 *
 * BODY: the body (compatible "aldebaran,nao-body", bound by the dcm body
 * driver): one bus, RS485-1, on RS48. The shipped robot description's
 * boards on the other buses are absent.
 */
DefinitionBlock ("", "SSDT", 2, "DCM", "BODY", 1)
{
	External (\_SB.PCI0.S08.COM2, DeviceObj)

	Scope (\_SB.PCI0.S08.COM2)
	{
		Device (RS48)
		{
			Name (_HID, "PRP0001")
			Name (_CRS, ResourceTemplate ()
			{
				UartSerialBusV2 (1000000, DataBitsEight, StopBitsOne, 0x00,
					LittleEndian, ParityTypeNone, FlowControlNone,
					0x40, 0x40, "\\_SB.PCI0.S08.COM2", 0x00,
					ResourceConsumer, , Exclusive, )
			})
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-rs485" },
					Package () { "current-speed", 1000000 },
					/* QEMU's UART to a host process: a slow round trip */
					Package () { "aldebaran,reply-window-us", 8000 },
				}
			})
		}
	}

	Scope (\_SB)
	{
		Device (BODY)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "body")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () {
						\_SB.PCI0.S08.COM2.RS48 } },
					Package () { "aldebaran,bus-names", Package () {
						"RS485-1" } },
				}
			})
		}
	}
}
