package colors

import "database/sql"

//go:generate stringer -type=Color
//go:generate mockgen -source=color.go -destination=mock_color.go
//go:generate go run github.com/deepmap/oapi-codegen/cmd/oapi-codegen@v1.16.2 -package api spec.yaml
type Color int

func init() { sql.Register("colors", nil) }
