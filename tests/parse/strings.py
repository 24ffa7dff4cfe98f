# every string form the tokenizer knows
@cuda.jit
def k():
    a = 'single'
    b = "double"
    c = '''triple
single'''
    d = """triple "double" with 'quotes'"""
    e = r'raw \n \' kept'
    f = R"RAW\d"
    g = b'bytes\x00\xff'
    h = Rb'\raw bytes' + bR"x" + BR'y' + rb"z"
    i = u'unicode \u00e9 \U0001F600 \N{DASH}'
    j = 'esc \t\n\\ \101\x41 \q'
    k = 'adjacent' "concat" '''enated'''
    l = 'line \
continued'
    m = ""
    n = ''''''
