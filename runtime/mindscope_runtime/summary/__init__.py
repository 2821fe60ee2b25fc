"""Read MindSpore summary files (`SummaryRecord` / `SummaryCollector`) without MindSpore.

`framing` splits a file into CRC-checked records, `proto` builds MindSpore's `Event` message
from its own schema, `events` turns an Event into plain values, `runs` finds and tails every
summary directory under a root, `document` writes the versioned summary document.
"""
