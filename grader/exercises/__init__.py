"""The course's exercises, one module each: see grader.exercise (the interface) and grader.bank (the registry)."""
