"""Link-preview PNG cards and README badges, drawn with the theme's fonts."""
