"""Reader hub entry point on the Pico: build the readers, then poll for ever, taking
the host's commands (``ZONES``) from USB serial between turns.

Everything worth testing lives in hubproto.py, poller.py, rc522.py, pn532.py and
board.py; this file only joins them to ``machine``, ``time`` and USB serial.
Interrupt it with Ctrl-C (mpremote does so before copying files).
"""

import sys
import time

import board
import config
import hubproto
import machine
import pn532
import poller
import rc522


def usb_writer():
    """A bytes sink on USB serial; raw bytes when the port offers them."""
    stream = getattr(sys.stdout, "buffer", None)
    if stream is not None:
        return stream.write
    return lambda line: sys.stdout.write(line.decode())


def usb_commands():
    """A function that returns the command lines the host has sent so far, never waiting.

    ``select.poll`` on stdin says whether a character is waiting; each is read on its
    own so the loop never blocks and the readers keep their turns.
    """
    import select

    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    reader = hubproto.CommandReader()

    def lines():
        got = ""
        while len(got) < 64:
            ready = poll.poll(0)
            if not ready:
                break
            ch = ready[0][0].read(1)
            if not ch:
                break  # end of input: no host on the other side
            got += ch
        return reader.feed(got) if got else []

    return lines


def main():
    led = machine.Pin("LED", machine.Pin.OUT)
    write = usb_writer()

    def out(line):
        led.toggle()  # the LED flickers with every line sent
        write(line)

    readers = board.make_readers(machine, config, {"rc522": rc522.RC522, "pn532": pn532.PN532}, time)
    hub = poller.Poller(
        readers,
        hubproto.LineWriter(out),
        time.ticks_ms,
        ticks_diff=time.ticks_diff,
        ticks_add=time.ticks_add,
        hold_ms=config.HOLD_MS,
        gap_ms=config.GAP_MS,
        repeat_ms=config.REPEAT_MS,
        gone_misses=config.GONE_MISSES,
        heartbeat_ms=config.HEARTBEAT_MS,
        hello_ms=config.HELLO_MS,
        retry_ms=config.RETRY_MS,
        fault_ms=config.FAULT_MS,
    )
    commands = usb_commands()
    dog = machine.WDT(timeout=config.WATCHDOG_MS) if config.WATCHDOG_MS else None
    while True:
        for line in commands():
            body, problem = hubproto.command_body(line)
            hub.command(body, problem)
        wait = hub.step()
        if dog is not None:
            dog.feed()
        if wait:
            time.sleep_ms(wait)


main()
