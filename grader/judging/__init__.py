"""Judging one answer: the rules applied to every part kind, named mistakes, the reference table
kept between runs, the time and memory limits, and the outcome a check returns."""
