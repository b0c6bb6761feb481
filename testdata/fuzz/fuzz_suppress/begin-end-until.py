# sunset-ignore-begin[FZ-ONE] until=2030-01-01: the whole block, until 2030
a = 1
b = 2
# sunset-ignore-end[FZ-ONE]
# sunset-ignore[FZ-TWO] until=2020-02-29: expired
c = 3
/* sunset-ignore[FZ-ONE]: C-style leader */
d = 4
<!-- sunset-ignore[FZ-TWO]: markdown leader -->
.. sunset-ignore[FZ-ONE]: rst leader
