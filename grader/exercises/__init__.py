"""The course's exercises, one module each: see grader.model.exercise (the interface) and grader.bank (the registry)."""
