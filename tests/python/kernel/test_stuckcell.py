"""The interrupt watch's decisions, without a kernel (the real case: test_interrupt_native)."""

from __future__ import annotations

import threading

from mindscope_kernel.stuckcell import NOTICE, RESTARTING, StuckCellWatch


class Calls:
    def __init__(self) -> None:
        self.interrupts = 0
        self.told: list[str] = []
        self.restarted = threading.Event()
        self.noticed = threading.Event()

    def watch(self) -> StuckCellWatch:
        return StuckCellWatch(self.interrupt, self.tell, self.restarted.set, grace_s=0.05)

    def interrupt(self) -> None:
        self.interrupts += 1

    def tell(self, text: str) -> None:
        self.told.append(text)
        if text == NOTICE:
            self.noticed.set()


def test_nothing_running_nothing_interrupted() -> None:
    calls = Calls()
    calls.watch().interrupt()
    assert calls.interrupts == 0 and calls.told == []


def test_a_cell_that_stops_in_time_gets_no_notice() -> None:
    calls = Calls()
    watch = calls.watch()
    watch.started()
    watch.interrupt()
    watch.finished()
    assert not calls.noticed.wait(0.3)
    assert calls.interrupts == 1 and calls.told == []


def test_a_held_cell_gets_the_notice_then_a_second_interrupt_restarts() -> None:
    calls = Calls()
    watch = calls.watch()
    watch.started()
    watch.interrupt()
    assert calls.noticed.wait(5)
    watch.interrupt()
    assert calls.restarted.wait(5)
    assert calls.told == [NOTICE, RESTARTING] and calls.interrupts == 1


def test_the_notice_is_per_cell() -> None:
    calls = Calls()
    watch = calls.watch()
    watch.started()
    watch.interrupt()
    assert calls.noticed.wait(5)
    watch.finished()
    watch.started()  # the next cell: an interrupt interrupts again, no restart
    watch.interrupt()
    assert calls.interrupts == 2 and not calls.restarted.is_set()
