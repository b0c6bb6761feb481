# sunset-ignore-file[FZ-TWO]: the whole file is a compat layer
x = 1  # sunset-ignore[FZ-ONE]
y = 2  # sunset-ignore[NO-SUCH-RULE]: unknown rule
z = 3  # sunset-ignore[FZ-ONE] until=2024-13-40: bad date
# sunset-ignore-end[FZ-ONE]
# sunset-ignore-begin[FZ-TWO]: never closed
s = "sunset-ignore[FZ-ONE]: inside a string, not a comment"
# sunset-ignore[]: empty list
#   * sunset-ignore[FZ-ONE]: block comment star
