/*
 * SPDX-License-Identifier: GPL-2.0
 *
 * Bodies that firmware gets wrong, for dcm_firmware_test.sh: the VM boots
 * with scripts/dcm-vm --rs485-uart --acpi scripts/vm/bad-bodies.asl, so
 * that scripts/vm/body.asl's BODY and its RS485 line RS48 are there too.
 * None of these bodies may get a controller, but for one of BODY and BDUP.
 *
 * NOTR  an RS485 line described outside any UART: no serdev device, so no
 *       transport ever binds to it
 * BWAI  its one bus, RS485-2, is NOTR: it waits for the transport
 *       (-EPROBE_DEFER, /sys/kernel/debug/devices_deferred)
 * BDUP  RS485-1 on RS48, which BODY claims too: one of the two gets the
 *       transport, the other fails (-EBUSY)
 * BNNM  aldebaran,buses but no aldebaran,bus-names
 * BNRF  two names and one reference: the second bus's reference is missing
 * BCNT  one name and two references
 */
DefinitionBlock ("", "SSDT", 2, "DCM", "BADBODY", 1)
{
	External (\_SB.PCI0.S08.COM2.RS48, DeviceObj)

	Scope (\_SB)
	{
		Device (NOTR)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "notr")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-rs485" },
				}
			})
		}

		Device (BWAI)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "bwai")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () { NOTR } },
					Package () { "aldebaran,bus-names", Package () { "RS485-2" } },
				}
			})
		}

		Device (BDUP)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "bdup")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () {
						\_SB.PCI0.S08.COM2.RS48 } },
					Package () { "aldebaran,bus-names", Package () { "RS485-1" } },
				}
			})
		}

		Device (BNNM)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "bnnm")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () { NOTR } },
				}
			})
		}

		Device (BNRF)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "bnrf")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () { NOTR } },
					Package () { "aldebaran,bus-names", Package () {
						"RS485-3", "RS485-4" } },
				}
			})
		}

		Device (BCNT)
		{
			Name (_HID, "PRP0001")
			Name (_UID, "bcnt")
			Name (_DSD, Package ()
			{
				ToUUID ("daffd814-6eba-4d8c-8a91-bc9bbf4aa301"),
				Package ()
				{
					Package () { "compatible", "aldebaran,nao-body" },
					Package () { "aldebaran,buses", Package () { NOTR, NOTR } },
					Package () { "aldebaran,bus-names", Package () { "RS485-3" } },
				}
			})
		}
	}
}
