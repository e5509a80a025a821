module svc-interop-go

go 1.21

require github.com/softlayer/softlayer-go v1.1.7

require (
	github.com/softlayer/xmlrpc v0.0.0-20200409220501-5f089df7cb7e // indirect
	golang.org/x/text v0.14.0 // indirect
)
