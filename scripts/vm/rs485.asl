/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * An SSDT for the test VM: QEMU's second UART (COM2) carries the RS485 bus
 * RS485-1, so the dcm RS485 transport (compatible "aldebaran,nao-rs485",
 * matched through PRP0001) binds to it as a serdev device. scripts/dcm-vm
 * compiles it with iasl and passes it with -acpitable.
 */
DefinitionBlock ("", "SSDT", 2, "DCM", "RS485", 1)
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
					Package () { "dcm,bus-name", "RS485-1" },
					Package () { "current-speed", 1000000 },
				}
			})
		}
	}
}
