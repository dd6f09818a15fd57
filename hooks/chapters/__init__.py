"""Reading and rendering chapters: a chapter's source line by line, the course's blocks, exercises and figures,
math as MathML, the sanitizer, the site's labels, and the disk cache of what is drawn from the grader's bank."""
