from errmods.loop_b import shared_name
