@cuda.jit
def k(a):
	if a:
		b = 1 # tab indented

	# comment at odd indent
  # comment

	else:
		b = 2
	return
